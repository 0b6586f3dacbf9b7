/**
 * The size of a bbolt database as bbolt reports it (`tx.Size()` = high-water page id × page
 * size), read from its two meta pages: the valid one (magic, version 2, FNV-1a-64 checksum)
 * with the larger transaction id wins. Layout (little-endian), at page offset:
 *   0 page id u64 · 8 flags u16 · 10 count u16 · 12 overflow u32 ·
 *   16 magic u32 (0xED0CDAED) · 20 version u32 · 24 page size u32 · 28 flags u32 ·
 *   32 root bucket (root u64, sequence u64) · 48 freelist u64 · 56 pgid u64 · 64 txid u64 ·
 *   72 checksum u64 = FNV-1a-64 of bytes 16..72.
 * `boltSizeOf` is pure; `boltSize` reads the two pages from a file.
 */
import { open } from 'node:fs/promises';

const MAGIC = 0xed0cdaed;
const META_AT = 16;
const META_END = 72;
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

/** The meta held by the page at `at`, or undefined when it is not a valid meta page. */
export function readMetaPage(buf: Buffer, at: number): Meta | undefined {
  if (buf.length < at + META_END + 8) return undefined;
  if (buf.readUInt32LE(at + META_AT) !== MAGIC || buf.readUInt32LE(at + META_AT + 4) !== 2) return undefined;
  if (fnv1a64(buf.subarray(at + META_AT, at + META_END)) !== buf.readBigUInt64LE(at + META_END)) return undefined;
  return { pageSize: buf.readUInt32LE(at + 24), pgid: buf.readBigUInt64LE(at + 56), txid: buf.readBigUInt64LE(at + 64) };
}

/** The database size from the first two pages' bytes; undefined when neither meta is valid. */
export function boltSizeOf(firstPage: Buffer, secondPage: Buffer): number | undefined {
  const metas = [readMetaPage(firstPage, 0), readMetaPage(secondPage, 0)].filter((m): m is Meta => m !== undefined);
  if (metas.length === 0) return undefined;
  const best = metas.reduce((a, b) => (b.txid > a.txid ? b : a));
  return Number(best.pgid) * best.pageSize;
}

/** Reads the two meta pages of the bbolt file at `path`; undefined when it holds no valid meta. */
export async function boltSize(path: string): Promise<number | undefined> {
  const fh = await open(path, 'r');
  try {
    const first = Buffer.alloc(META_END + 8);
    await fh.read(first, 0, first.length, 0);
    const pageSize = first.readUInt32LE(24);
    const second = Buffer.alloc(META_END + 8);
    if (pageSize >= 512 && pageSize <= 1 << 20) await fh.read(second, 0, second.length, pageSize);
    return boltSizeOf(first, second);
  } finally {
    await fh.close();
  }
}
