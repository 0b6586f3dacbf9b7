/**
 * What bbolt learns from a file's two meta pages when it opens it, with bbolt's own error texts:
 * the database size (`tx.Size()` = high-water page id × page size, from the valid meta with the
 * larger transaction id), or why the file is not a database (`file size too small`, `invalid
 * database`, `version mismatch`, `checksum error`: the first meta's problem when both are bad).
 * Meta page layout (little-endian), at page offset:
 *   0 page id u64 · 8 flags u16 · 10 count u16 · 12 overflow u32 ·
 *   16 magic u32 (0xED0CDAED) · 20 version u32 (2) · 24 page size u32 · 28 flags u32 ·
 *   32 root bucket (root u64, sequence u64) · 48 freelist u64 · 56 pgid u64 · 64 txid u64 ·
 *   72 checksum u64 = FNV-1a-64 of bytes 16..72.
 * `inspectPages` is pure; `inspectBolt` reads the two pages from a file.
 */
import { open } from 'node:fs/promises';

const MAGIC = 0xed0cdaed;
const META_AT = 16;
const META_END = 72;
const META_BYTES = META_END + 8;
/** bbolt falls back to the OS page size when the first meta is unreadable. */
const OS_PAGE_SIZE = 4096;
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;

function fnv1a64(bytes: Uint8Array): bigint {
  let h = FNV_OFFSET;
  for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK64;
  return h;
}

interface Meta {
  readonly pageSize: number;
  readonly pgid: bigint;
  readonly txid: bigint;
}

/** The meta at the start of `page`, or bbolt's reason it is not valid. */
export function readMetaPage(page: Buffer): Meta | { readonly problem: string } {
  if (page.length < META_BYTES) return { problem: 'invalid database' };
  if (page.readUInt32LE(META_AT) !== MAGIC) return { problem: 'invalid database' };
  if (page.readUInt32LE(META_AT + 4) !== 2) return { problem: 'version mismatch' };
  if (fnv1a64(page.subarray(META_AT, META_END)) !== page.readBigUInt64LE(META_END)) return { problem: 'checksum error' };
  return { pageSize: page.readUInt32LE(24), pgid: page.readBigUInt64LE(56), txid: page.readBigUInt64LE(64) };
}

export type BoltInspection = { readonly ok: true; readonly size: number; readonly pageSize: number } | { readonly ok: false; readonly problem: string };

/** Sizes and validity from the first bytes of both meta pages and the file size. */
export function inspectPages(first: Buffer, second: Buffer, fileSize: number): BoltInspection {
  const m0 = readMetaPage(first);
  const pageSize = 'problem' in m0 ? OS_PAGE_SIZE : m0.pageSize;
  if (fileSize < pageSize * 2) return { ok: false, problem: 'file size too small' };
  const m1 = readMetaPage(second);
  const valid = [m0, m1].filter((m): m is Meta => !('problem' in m));
  if (valid.length === 0) return { ok: false, problem: (m0 as { problem: string }).problem };
  const best = valid.reduce((a, b) => (b.txid > a.txid ? b : a));
  return { ok: true, size: Number(best.pgid) * best.pageSize, pageSize };
}

/** Reads the two meta pages of the file at `path` (I/O errors are thrown). */
export async function inspectBolt(path: string): Promise<BoltInspection> {
  const fh = await open(path, 'r');
  try {
    const fileSize = (await fh.stat()).size;
    const first = Buffer.alloc(META_BYTES);
    await fh.read(first, 0, META_BYTES, 0);
    const m0 = readMetaPage(first);
    const pageSize = 'problem' in m0 ? OS_PAGE_SIZE : m0.pageSize;
    const second = Buffer.alloc(META_BYTES);
    if (pageSize >= 512 && pageSize <= 1 << 20) await fh.read(second, 0, META_BYTES, pageSize);
    return inspectPages(first, second, fileSize);
  } finally {
    await fh.close();
  }
}
