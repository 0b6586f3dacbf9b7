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
 * Memory: one page of entries per open tree and one (key, page id) per leaf page written.
 * Errors: entries out of order, duplicate or unordered bucket names, keys over 32 KiB → throws
 * (the caller's invariant); the partial file is left for the caller to remove.
 */
import { open } from 'node:fs/promises';
import { BUCKET_LEAF_FLAG, DEFAULT_PAGE_SIZE, ELEMENT_SIZE, PAGE_HEADER_SIZE, type LeafElement, type Meta } from './layout.js';
import { bucketValue, encodeEmptyFreelist, encodeMetaPage, inlineBucketValue } from './page-encode.js';
import { PageSink } from './page-sink.js';
import { TreeBuilder } from './tree-builder.js';
import type { BoltBucketSource } from './types.js';

export interface WriteBoltOptions {
  /** Page size in bytes (default 4096). */
  readonly pageSize?: number;
  /** fsync the file before resolving (default true). */
  readonly sync?: boolean;
}

/** The bucket's value in the root bucket: inline when small, else the root page of its own tree. */
async function writeBucket(sink: PageSink, entries: AsyncIterable<readonly [Buffer, Buffer]>): Promise<Buffer> {
  const inlineLimit = sink.pageSize / 4;
  const small: LeafElement[] = [];
  let smallBytes = PAGE_HEADER_SIZE;
  let tree: TreeBuilder | undefined;
  for await (const [key, value] of entries) {
    if (tree !== undefined) {
      await tree.add(key, value);
      continue;
    }
    small.push({ flags: 0, key, value });
    smallBytes += ELEMENT_SIZE + key.length + value.length;
    if (smallBytes > inlineLimit) {
      tree = new TreeBuilder(sink);
      for (const e of small) await tree.add(e.key, e.value);
    }
  }
  if (tree === undefined) {
    for (let i = 1; i < small.length; i++) {
      if (Buffer.compare(small[i - 1]!.key, small[i]!.key) >= 0) throw new Error('bbolt: keys must strictly ascend');
    }
    return inlineBucketValue(small);
  }
  return bucketValue(await tree.finish());
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
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (pageSize < 1024 || (pageSize & (pageSize - 1)) !== 0) throw new Error(`bbolt: page size ${pageSize} is not a power of two ≥ 1024`);
  const fh = await open(path, 'w');
  try {
    const sink = new PageSink(fh, pageSize);
    const root = new TreeBuilder(sink);
    for await (const bucket of buckets) {
      const value = await writeBucket(sink, bucket.entries);
      await root.add(Buffer.from(bucket.name, 'utf8'), value, BUCKET_LEAF_FLAG);
    }
    const rootId = await root.finish();
    const freelistId = await sink.append(encodeEmptyFreelist(sink.next, pageSize));
    await sink.flush();
    const meta = (txid: bigint): Meta => ({
      pageSize,
      flags: 0,
      root: rootId,
      sequence: 0n,
      freelist: BigInt(freelistId),
      pgid: sink.next,
      txid,
    });
    const metas = Buffer.concat([encodeMetaPage(0, meta(0n)), encodeMetaPage(1, meta(1n))]);
    const { bytesWritten } = await fh.write(metas, 0, metas.length, 0);
    if (bytesWritten !== metas.length) throw new Error('bbolt: short write of the meta pages');
    if (options.sync ?? true) await fh.sync();
    return { size: sink.next * pageSize };
  } finally {
    await fh.close();
  }
}
