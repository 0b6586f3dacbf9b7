/**
 * bbolt's on-disk layout: page header, meta page, leaf/branch elements, bucket headers
 * (FORMAT.md beside this file). Pure codecs over Buffers; every integer is little-endian.
 *
 * Page ids are `number` here, not `bigint`: they index pages of one file and stay far below
 * 2^53 / pageSize, and they feed file offsets, which Node takes as numbers. On disk they are u64.
 */

export const DEFAULT_PAGE_SIZE = 4096;
export const PAGE_HEADER_SIZE = 16;
export const ELEMENT_SIZE = 16;
export const BUCKET_HEADER_SIZE = 16;
export const META_SIZE = 64;
export const MAGIC = 0xed0cdaed;
export const VERSION = 2;
/** bbolt refuses longer keys on Put; the writer does too. */
export const MAX_KEY_SIZE = 32768;
/** `meta.freelist` when the free list is not stored (etcd 3.4 writes this: NoFreelistSync). */
export const NO_FREELIST = 0xffffffffffffffffn;

export const PageFlag = { Branch: 0x01, Leaf: 0x02, Meta: 0x04, Freelist: 0x10 } as const;
export type PageFlag = (typeof PageFlag)[keyof typeof PageFlag];
/** Leaf element flag: the value is a bucket header (and, when root is 0, an inline page). */
export const BUCKET_LEAF_FLAG = 0x01;

export interface PageHeader {
  readonly id: number;
  readonly flags: number;
  readonly count: number;
  readonly overflow: number;
}

export function readPageHeader(buf: Buffer, at = 0): PageHeader {
  return {
    id: Number(buf.readBigUInt64LE(at)),
    flags: buf.readUInt16LE(at + 8),
    count: buf.readUInt16LE(at + 10),
    overflow: buf.readUInt32LE(at + 12),
  };
}

export function writePageHeader(buf: Buffer, h: PageHeader, at = 0): void {
  buf.writeBigUInt64LE(BigInt(h.id), at);
  buf.writeUInt16LE(h.flags, at + 8);
  buf.writeUInt16LE(h.count, at + 10);
  buf.writeUInt32LE(h.overflow, at + 12);
}

export interface Meta {
  readonly pageSize: number;
  readonly flags: number;
  /** Root page of the root bucket (the bucket of buckets). */
  readonly root: number;
  readonly sequence: bigint;
  /** Page id of the free list, or NO_FREELIST. */
  readonly freelist: bigint;
  /** High-water mark: the number of pages in use (every page id is below it). */
  readonly pgid: number;
  readonly txid: bigint;
}

/** FNV-1a 64 of `bytes` (bbolt's meta checksum). */
export function fnv1a64(bytes: Buffer): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

/** The 64 meta bytes (magic … checksum). */
export function encodeMeta(m: Meta): Buffer {
  const b = Buffer.alloc(META_SIZE);
  b.writeUInt32LE(MAGIC, 0);
  b.writeUInt32LE(VERSION, 4);
  b.writeUInt32LE(m.pageSize, 8);
  b.writeUInt32LE(m.flags, 12);
  b.writeBigUInt64LE(BigInt(m.root), 16);
  b.writeBigUInt64LE(m.sequence, 24);
  b.writeBigUInt64LE(m.freelist, 32);
  b.writeBigUInt64LE(BigInt(m.pgid), 40);
  b.writeBigUInt64LE(m.txid, 48);
  b.writeBigUInt64LE(fnv1a64(b.subarray(0, 56)), 56);
  return b;
}

export type MetaResult = { readonly kind: 'Ok'; readonly meta: Meta } | { readonly kind: 'Invalid'; readonly reason: string };

/** Decodes and validates (magic, version, checksum) the 64 meta bytes at `at`. */
export function decodeMeta(buf: Buffer, at = 0): MetaResult {
  if (buf.length < at + META_SIZE) return { kind: 'Invalid', reason: 'short meta page' };
  const b = buf.subarray(at, at + META_SIZE);
  if (b.readUInt32LE(0) !== MAGIC) return { kind: 'Invalid', reason: 'invalid magic' };
  if (b.readUInt32LE(4) !== VERSION) return { kind: 'Invalid', reason: `version ${b.readUInt32LE(4)} (want ${VERSION})` };
  if (b.readBigUInt64LE(56) !== fnv1a64(b.subarray(0, 56))) return { kind: 'Invalid', reason: 'checksum mismatch' };
  return {
    kind: 'Ok',
    meta: {
      pageSize: b.readUInt32LE(8),
      flags: b.readUInt32LE(12),
      root: Number(b.readBigUInt64LE(16)),
      sequence: b.readBigUInt64LE(24),
      freelist: b.readBigUInt64LE(32),
      pgid: Number(b.readBigUInt64LE(40)),
      txid: b.readBigUInt64LE(48),
    },
  };
}

/** A leaf element: key and value slices of the page (pos is relative to the element). */
export interface LeafElement {
  readonly flags: number;
  readonly key: Buffer;
  readonly value: Buffer;
}

/** A branch element: the first key of the child page and the child's id. */
export interface BranchElement {
  readonly key: Buffer;
  readonly pgid: number;
}

/** The elements of the leaf page starting at `at` in `buf` (inline pages included). */
export function leafElements(buf: Buffer, at: number, count: number): LeafElement[] {
  const out: LeafElement[] = [];
  for (let i = 0; i < count; i++) {
    const e = at + PAGE_HEADER_SIZE + i * ELEMENT_SIZE;
    const flags = buf.readUInt32LE(e);
    const pos = e + buf.readUInt32LE(e + 4);
    const ksize = buf.readUInt32LE(e + 8);
    const vsize = buf.readUInt32LE(e + 12);
    if (pos + ksize + vsize > buf.length) throw new Error(`bbolt: leaf element ${i} runs past its page`);
    out.push({ flags, key: buf.subarray(pos, pos + ksize), value: buf.subarray(pos + ksize, pos + ksize + vsize) });
  }
  return out;
}

/** The elements of the branch page at the start of `buf`. */
export function branchElements(buf: Buffer, count: number): BranchElement[] {
  const out: BranchElement[] = [];
  for (let i = 0; i < count; i++) {
    const e = PAGE_HEADER_SIZE + i * ELEMENT_SIZE;
    const pos = e + buf.readUInt32LE(e);
    const ksize = buf.readUInt32LE(e + 4);
    if (pos + ksize > buf.length) throw new Error(`bbolt: branch element ${i} runs past its page`);
    out.push({ key: buf.subarray(pos, pos + ksize), pgid: Number(buf.readBigUInt64LE(e + 8)) });
  }
  return out;
}

/** A bucket's value: its header {root, sequence}; root 0 means the rest is an inline leaf page. */
export function decodeBucketHeader(value: Buffer): { readonly root: number; readonly sequence: bigint } {
  if (value.length < BUCKET_HEADER_SIZE) throw new Error('bbolt: bucket value shorter than its header');
  return { root: Number(value.readBigUInt64LE(0)), sequence: value.readBigUInt64LE(8) };
}
