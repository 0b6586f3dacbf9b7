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
 * `streamBolt` produces the same bytes as a stream, meta pages first, by laying the file out
 * in a first pass that encodes nothing (see there).
 *
 * Memory: one page of entries per open tree and one (key, page id) per leaf page written.
 * Errors: entries out of order, duplicate or unordered bucket names, keys over 32 KiB → throws
 * (the caller's invariant); the partial file is left for the caller to remove.
 */
import { open } from 'node:fs/promises';
import { BUCKET_LEAF_FLAG, DEFAULT_PAGE_SIZE, ELEMENT_SIZE, PAGE_HEADER_SIZE, type LeafElement, type Meta } from './layout.js';
import { bucketValue, encodeEmptyFreelist, encodeMetaPage, inlineBucketValue } from './page-encode.js';
import { BufferSink, CountingSink, FilePageSink, type PageSink } from './page-sink.js';
import { TreeBuilder } from './tree-builder.js';
import type { BoltBucketSource } from './types.js';

export interface WriteBoltOptions {
  /** Page size in bytes (default 4096). */
  readonly pageSize?: number;
  /** fsync the file before resolving (default true). */
  readonly sync?: boolean;
}

/** What the meta pages name: the root bucket's page, the free list's page, the high-water mark. */
interface BoltLayout {
  readonly root: number;
  readonly freelist: number;
  readonly pgid: number;
}

/** Pauses a build (a `yield`) while `full` says the sink should be emptied first. */
type Full = () => boolean;

/** The bucket's value in the root bucket: inline when small, else the root page of its own tree. */
async function* writeBucket(sink: PageSink, entries: AsyncIterable<readonly [Buffer, Buffer]>, full: Full): AsyncGenerator<void, Buffer> {
  const inlineLimit = sink.pageSize / 4;
  const small: LeafElement[] = [];
  let smallBytes = PAGE_HEADER_SIZE;
  let tree: TreeBuilder | undefined;
  for await (const [key, value] of entries) {
    if (tree !== undefined) {
      const written = tree.add(key, value);
      if (written !== undefined) await written;
      if (full()) yield;
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

/** Every page after the two meta pages, into `sink`: each bucket's tree, the root bucket, the free list. */
async function* buildPages(sink: PageSink, buckets: AsyncIterable<BoltBucketSource> | Iterable<BoltBucketSource>, full: Full): AsyncGenerator<void, BoltLayout> {
  const root = new TreeBuilder(sink);
  for await (const bucket of buckets) {
    const value = yield* writeBucket(sink, bucket.entries, full);
    await root.add(Buffer.from(bucket.name, 'utf8'), value, BUCKET_LEAF_FLAG);
  }
  const rootId = await root.finish();
  const freelist = sink.counting ? sink.reserve(1) : await sink.append(encodeEmptyFreelist(sink.next, sink.pageSize));
  return { root: rootId, freelist, pgid: sink.next };
}

function metaPages(layout: BoltLayout, pageSize: number): Buffer {
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

function checkedPageSize(options: WriteBoltOptions): number {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (pageSize < 1024 || (pageSize & (pageSize - 1)) !== 0) throw new Error(`bbolt: page size ${pageSize} is not a power of two ≥ 1024`);
  return pageSize;
}

async function drainBuild(build: AsyncGenerator<void, BoltLayout>): Promise<BoltLayout> {
  for (;;) {
    const r = await build.next();
    if (r.done === true) return r.value;
  }
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
    const sink = new FilePageSink(fh, pageSize);
    const layout = await drainBuild(buildPages(sink, buckets, () => false));
    await sink.flush();
    const metas = metaPages(layout, pageSize);
    const { bytesWritten } = await fh.write(metas, 0, metas.length, 0);
    if (bytesWritten !== metas.length) throw new Error('bbolt: short write of the meta pages');
    if (options.sync ?? true) await fh.sync();
    return { size: layout.pgid * pageSize };
  } finally {
    await fh.close();
  }
}

/** A bbolt database produced as a byte stream (see streamBolt). */
export interface BoltStream {
  /** Bytes `chunks` will yield in all (a multiple of the page size). */
  readonly size: number;
  /** The file's bytes in order, in pieces of about 256 KiB: meta pages first. */
  readonly chunks: AsyncIterable<Buffer>;
}

/**
 * The bbolt database of `buckets` as a stream, never held whole: a first pass over the data
 * only lays the pages out (no page is encoded) to learn what the meta pages at the front of the
 * file must name; the second pass encodes the pages in file order and yields them as they
 * fill. `buckets` is called once per pass and must give the same entries both times (a pinned
 * view); a difference is detected at the end and fails the stream.
 * Memory: one page per open tree level, one (key, id) per leaf page, ≈256 KiB of pages.
 */
export async function streamBolt(buckets: () => AsyncIterable<BoltBucketSource> | Iterable<BoltBucketSource>, options: WriteBoltOptions = {}): Promise<BoltStream> {
  const pageSize = checkedPageSize(options);
  const layout = await drainBuild(buildPages(new CountingSink(pageSize), buckets(), () => false));
  async function* chunks(): AsyncGenerator<Buffer> {
    yield metaPages(layout, pageSize);
    const sink = new BufferSink(pageSize);
    const build = buildPages(sink, buckets(), () => sink.full);
    for (;;) {
      const r = await build.next();
      if (sink.pendingBytes > 0) yield Buffer.concat(sink.takePending());
      if (r.done === true) {
        if (r.value.root !== layout.root || r.value.freelist !== layout.freelist || r.value.pgid !== layout.pgid) {
          throw new Error('bbolt: the data changed between the layout pass and the write pass');
        }
        return;
      }
    }
  }
  return { size: layout.pgid * pageSize, chunks: chunks() };
}
