/**
 * Writing a bbolt database file from buckets of ascending entries (layout: FORMAT.md).
 *
 * Order on disk: pages 0 and 1 are left for the meta pages; from page 2 on, each bucket's leaf
 * pages as its entries stream in, then its branch pages; the root bucket's pages (the bucket
 * of buckets) after all buckets; then an empty free list page; last the two meta pages (txid 0
 * on page 0 and 1 on page 1, both naming the same root), then fsync unless told otherwise.
 * A bucket whose page would take at most a quarter page is stored inline in its value, as
 * bbolt itself does. The file size is (high-water mark) × page size.
 *
 * One pass: the meta pages at the front name the root and the high-water mark, known here only
 * at the end (planned-bolt.ts lays a file out before its data is read, for the snapshot
 * stream). Pages are encoded in place in one reused buffer written in ≈1 MiB pieces
 * (page-out.ts); bulk sources hand entries over in batches (no object per entry).
 *
 * Memory: one page of entry references per open tree, the first key of every page written,
 * and the page buffer. Errors: entries out of order, duplicate or unordered bucket names, keys
 * over 32 KiB → throws (the caller's invariant); the partial file is left for the caller to remove.
 */
import { open } from 'node:fs/promises';
import { BUCKET_LEAF_FLAG, DEFAULT_PAGE_SIZE, ELEMENT_SIZE, PAGE_HEADER_SIZE, type LeafElement, type Meta } from './layout.js';
import { bucketValue, encodeEmptyFreelistAt, encodeMetaPage, inlineBucketValue } from './page-encode.js';
import { fileSink, PageOut } from './page-out.js';
import { TreeBuilder } from './tree-builder.js';
import type { BoltBucketSource } from './types.js';

export interface WriteBoltOptions {
  /** Page size in bytes (default 4096). */
  readonly pageSize?: number;
  /** fsync the file before resolving (default true). */
  readonly sync?: boolean;
}

const NO_VALUE = Buffer.alloc(0);

/**
 * One bucket's entries on their way in: kept as a small list while the bucket could still be
 * inline, then handed to a tree of its own. `value()` is the bucket's value in the root bucket.
 */
class BucketWriter {
  private readonly small: LeafElement[] = [];
  private smallBytes = PAGE_HEADER_SIZE;
  private tree: TreeBuilder | undefined;

  constructor(private readonly out: PageOut) {}

  add(key: Buffer, keyStart: number, value: Buffer): void {
    if (this.tree !== undefined) {
      this.tree.add(key, keyStart, value);
      return;
    }
    const k = keyStart === 0 ? key : key.subarray(keyStart);
    this.small.push({ flags: 0, key: k, value });
    this.smallBytes += ELEMENT_SIZE + k.length + value.length;
    if (this.smallBytes > this.out.pageSize / 4) {
      const tree = new TreeBuilder(this.out);
      for (const e of this.small) tree.add(e.key, 0, e.value);
      this.small.length = 0;
      this.tree = tree;
    }
  }

  async value(): Promise<Buffer> {
    if (this.tree !== undefined) return bucketValue(await this.tree.finish());
    for (let i = 1; i < this.small.length; i++) {
      if (Buffer.compare(this.small[i - 1]!.key, this.small[i]!.key) >= 0) throw new Error('bbolt: keys must strictly ascend');
    }
    return inlineBucketValue(this.small);
  }
}

/** Writes the pages of `source` (a tree, or nothing when inline); returns its value in the root bucket. */
export async function bucketValueOf(out: PageOut, source: BoltBucketSource): Promise<Buffer> {
  const bucket = new BucketWriter(out);
  if ('batches' in source) {
    for await (const { entries, keyStart } of source.batches) {
      for (const [key, value] of entries) bucket.add(key, keyStart, value ?? NO_VALUE);
      if (out.full) await out.flush();
    }
  } else {
    for await (const [key, value] of source.entries) {
      bucket.add(key, 0, value);
      if (out.full) await out.flush();
    }
  }
  return bucket.value();
}

/** What the meta pages name: the root bucket's page, the free list's page, the high-water mark. */
export interface BoltLayout {
  readonly root: number;
  readonly freelist: number;
  readonly pgid: number;
}

/**
 * Every page after the two meta pages: each bucket's tree (`valueOf` writes it and returns the
 * bucket's value), the root bucket, the free list.
 */
export async function buildPages<B extends { readonly name: string }>(
  out: PageOut,
  buckets: AsyncIterable<B> | Iterable<B>,
  valueOf: (out: PageOut, bucket: B) => Promise<Buffer>,
): Promise<BoltLayout> {
  const root = new TreeBuilder(out, BUCKET_LEAF_FLAG);
  for await (const bucket of buckets) {
    const value = await valueOf(out, bucket);
    root.add(Buffer.from(bucket.name, 'utf8'), 0, value);
  }
  const rootId = await root.finish();
  const freelist = out.next;
  encodeEmptyFreelistAt(out.buf, out.take(1), freelist, out.pageSize);
  await out.close();
  return { root: rootId, freelist, pgid: out.next };
}

/** The two meta pages (txid 0 on page 0, 1 on page 1) naming `layout`. */
export function metaPages(layout: BoltLayout, pageSize: number): Buffer {
  const meta = (txid: bigint): Meta => ({
    pageSize,
    flags: 0,
    root: layout.root,
    sequence: 0n,
    freelist: BigInt(layout.freelist),
    pgid: layout.pgid,
    txid,
  });
  return Buffer.concat([encodeMetaPage(0, meta(0n)), encodeMetaPage(1, meta(1n))]);
}

export function checkedPageSize(options: WriteBoltOptions): number {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (pageSize < 1024 || (pageSize & (pageSize - 1)) !== 0) throw new Error(`bbolt: page size ${pageSize} is not a power of two ≥ 1024`);
  return pageSize;
}

/**
 * Writes a bbolt database to `path` (created or truncated) holding `buckets`, names ascending
 * bytewise (UTF-8), each with strictly ascending keys. Resolves with the file size, a multiple
 * of the page size.
 */
export async function writeBolt(
  path: string,
  buckets: AsyncIterable<BoltBucketSource> | Iterable<BoltBucketSource>,
  options: WriteBoltOptions = {},
): Promise<{ size: number }> {
  const pageSize = checkedPageSize(options);
  const fh = await open(path, 'w');
  try {
    const layout = await buildPages(new PageOut(fileSink(fh), pageSize), buckets, bucketValueOf);
    const metas = metaPages(layout, pageSize);
    const { bytesWritten } = await fh.write(metas, 0, metas.length, 0);
    if (bytesWritten !== metas.length) throw new Error('bbolt: short write of the meta pages');
    if (options.sync ?? true) await fh.sync();
    return { size: layout.pgid * pageSize };
  } finally {
    await fh.close();
  }
}
