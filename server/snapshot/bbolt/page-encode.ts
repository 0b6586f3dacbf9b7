/**
 * Page encoders (FORMAT.md): page headers, the small pages built whole (inline bucket leaves,
 * free list, meta) and bucket values. Pure. Tree pages are encoded in place by tree-builder.ts.
 * Inline pages (inside a bucket value) are not padded.
 */
import {
  BUCKET_HEADER_SIZE,
  ELEMENT_SIZE,
  PAGE_HEADER_SIZE,
  PageFlag,
  encodeMeta,
  writePageHeader,
  type LeafElement,
  type Meta,
} from './layout.js';

/** Bytes a leaf page with these elements needs (header + elements + keys + values). */
export function leafSize(elements: readonly LeafElement[]): number {
  let n = PAGE_HEADER_SIZE;
  for (const e of elements) n += ELEMENT_SIZE + e.key.length + e.value.length;
  return n;
}

/** Pages a page of `bytes` bytes takes (at least one). */
export function pageCount(bytes: number, pageSize: number): number {
  return Math.max(1, Math.ceil(bytes / pageSize));
}

/** Writes a page header at `at` (the id as two u32 halves: no bigint per page). */
export function writeHeaderAt(buf: Buffer, at: number, id: number, flags: number, count: number, overflow: number): void {
  buf.writeUInt32LE(id % 0x100000000, at);
  buf.writeUInt32LE(Math.floor(id / 0x100000000), at + 4);
  buf.writeUInt16LE(flags, at + 8);
  buf.writeUInt16LE(count, at + 10);
  buf.writeUInt32LE(overflow, at + 12);
}

/** A leaf page with id `id`; `pageSize` 0 means inline (exact size, id 0). */
export function encodeLeaf(elements: readonly LeafElement[], id: number, pageSize: number): Buffer {
  if (elements.length > 0xffff) throw new Error('bbolt: too many elements for one page');
  const size = leafSize(elements);
  const pages = pageSize === 0 ? 1 : pageCount(size, pageSize);
  const buf = Buffer.alloc(pageSize === 0 ? size : pages * pageSize);
  writePageHeader(buf, { id, flags: PageFlag.Leaf, count: elements.length, overflow: pages - 1 });
  let data = PAGE_HEADER_SIZE + elements.length * ELEMENT_SIZE;
  elements.forEach((e, i) => {
    const at = PAGE_HEADER_SIZE + i * ELEMENT_SIZE;
    buf.writeUInt32LE(e.flags, at);
    buf.writeUInt32LE(data - at, at + 4);
    buf.writeUInt32LE(e.key.length, at + 8);
    buf.writeUInt32LE(e.value.length, at + 12);
    data += e.key.copy(buf, data);
    data += e.value.copy(buf, data);
  });
  return buf;
}

/** An empty free list page (every page below the high-water mark is in use), encoded at `at`. */
export function encodeEmptyFreelistAt(buf: Buffer, at: number, id: number, pageSize: number): void {
  buf.fill(0, at, at + pageSize);
  writeHeaderAt(buf, at, id, PageFlag.Freelist, 0, 0);
}

/** Meta page `id` (0 or 1). */
export function encodeMetaPage(id: number, meta: Meta): Buffer {
  const buf = Buffer.alloc(meta.pageSize);
  writePageHeader(buf, { id, flags: PageFlag.Meta, count: 0, overflow: 0 });
  encodeMeta(meta).copy(buf, PAGE_HEADER_SIZE);
  return buf;
}

/** A bucket value holding an inline leaf page with `elements`. */
export function inlineBucketValue(elements: readonly LeafElement[]): Buffer {
  const header = Buffer.alloc(BUCKET_HEADER_SIZE);
  return Buffer.concat([header, encodeLeaf(elements, 0, 0)]);
}

/** A bucket value pointing at root page `root`. */
export function bucketValue(root: number): Buffer {
  const header = Buffer.alloc(BUCKET_HEADER_SIZE);
  header.writeBigUInt64LE(BigInt(root), 0);
  return header;
}
