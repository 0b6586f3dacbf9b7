/**
 * A bbolt file laid out before its data is read, then produced in file order, meta pages
 * first: what lets the snapshot stream send its first page before its last one is built.
 *
 * `planBolt` takes each bucket either as its entries (small buckets, read whole) or only as its
 * elements' sizes (the big `key` bucket, from the backend's record ledger) and runs the writer
 * over a discarding sink, a sized bucket counted by `sizedTreeLayout` instead of encoded. That
 * gives every page id the writer will hand out: the root bucket's page, the free list's, the
 * high-water mark, hence the meta pages and the file's size.
 * `writePlannedBolt` then runs the writer for real into a sink, a sized bucket now read from
 * its batches with every element checked against its planned size: an element of another
 * size, one too many or one missing throws (the pages would not match the meta pages already
 * sent), and so does a layout that ends different from the plan.
 */
import { ELEMENT_SIZE, PAGE_HEADER_SIZE } from './layout.js';
import { bucketValue } from './page-encode.js';
import { discardSink, PageOut, type PageSink } from './page-out.js';
import { sizedTreeLayout, type ElementSizes } from './tree-layout.js';
import type { BoltEntryBatch } from './types.js';
import { bucketValueOf, buildPages, checkedPageSize, metaPages, type BoltLayout, type WriteBoltOptions } from './writer.js';

export type PlannedBucket =
  | { readonly name: string; readonly entries: readonly (readonly [Buffer, Buffer])[] }
  | { readonly name: string; readonly sizes: ElementSizes; readonly batches: AsyncIterable<BoltEntryBatch> };

export interface BoltPlan {
  readonly layout: BoltLayout;
  readonly pageSize: number;
  /** Bytes of the whole file. */
  readonly size: number;
  /** Pages 0 and 1. */
  readonly metas: Buffer;
}

/** True when a bucket of elements of these sizes is stored inline (bbolt's rule: at most a quarter page). */
export function storedInline(sizes: ElementSizes, pageSize: number): boolean {
  let bytes = PAGE_HEADER_SIZE;
  for (let i = 0; i < sizes.length; i++) {
    bytes += ELEMENT_SIZE + sizes.keyLength(i) + sizes.valueLength(i);
    if (bytes > pageSize / 4) return false;
  }
  return true;
}

function sizedValue(out: PageOut, name: string, sizes: ElementSizes): Buffer {
  if (storedInline(sizes, out.pageSize)) throw new Error(`bbolt: bucket ${name} is small enough to be inline; plan it with its entries`);
  const tree = sizedTreeLayout(sizes, out.pageSize, out.next);
  out.skip(tree.pages);
  return bucketValue(tree.root);
}

/** The layout of the file `writePlannedBolt` will produce from `buckets` (names ascending bytewise). */
export async function planBolt(buckets: readonly PlannedBucket[], options: WriteBoltOptions = {}): Promise<BoltPlan> {
  const pageSize = checkedPageSize(options);
  const layout = await buildPages(new PageOut(discardSink, pageSize), buckets, (out, b) =>
    'sizes' in b ? Promise.resolve(sizedValue(out, b.name, b.sizes)) : bucketValueOf(out, { name: b.name, entries: b.entries }),
  );
  return { layout, pageSize, size: layout.pgid * pageSize, metas: metaPages(layout, pageSize) };
}

/** `batches` as they come, each element checked against `sizes` (in order, same count). */
async function* checkedBatches(name: string, batches: AsyncIterable<BoltEntryBatch>, sizes: ElementSizes): AsyncGenerator<BoltEntryBatch> {
  let i = 0;
  for await (const batch of batches) {
    const { entries, keyStart } = batch;
    for (const [key, value] of entries) {
      const keyLen = key.length - keyStart;
      const valueLen = value?.length ?? 0;
      if (i >= sizes.length) throw new Error(`bbolt: bucket ${name} has more than the ${sizes.length} elements planned`);
      if (keyLen !== sizes.keyLength(i) || valueLen !== sizes.valueLength(i)) {
        throw new Error(`bbolt: element ${i} of bucket ${name} is ${keyLen} + ${valueLen} bytes, planned ${sizes.keyLength(i)} + ${sizes.valueLength(i)}`);
      }
      i++;
    }
    yield batch;
  }
  if (i !== sizes.length) throw new Error(`bbolt: bucket ${name} has ${i} elements, planned ${sizes.length}`);
}

/**
 * Produces every page after the meta pages (from byte 2 × pageSize on, in order) into `sink`,
 * from the same buckets as the plan; throws when anything differs from `plan`.
 */
export async function writePlannedBolt(plan: BoltPlan, buckets: readonly PlannedBucket[], sink: PageSink): Promise<void> {
  const layout = await buildPages(new PageOut(sink, plan.pageSize), buckets, (out, b) =>
    bucketValueOf(out, 'sizes' in b ? { name: b.name, batches: checkedBatches(b.name, b.batches, b.sizes) } : { name: b.name, entries: b.entries }),
  );
  const want = plan.layout;
  if (layout.root !== want.root || layout.freelist !== want.freelist || layout.pgid !== want.pgid) {
    throw new Error(`bbolt: the file came out as root ${layout.root}, free list ${layout.freelist}, ${layout.pgid} pages; planned ${want.root}, ${want.freelist}, ${want.pgid}`);
  }
}
