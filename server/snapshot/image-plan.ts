/**
 * The layout of a snapshot image, from a pinned view and the sizes of its `key` records:
 * the small buckets read whole, the `key` bucket known only by its record sizes (the MVCC
 * record ledger) and read later, in file order, while the pages are produced. Used where the
 * image is produced: this thread (streamed-snapshot.ts) or a worker (image-thread-worker.ts).
 */
import type { BoltEntryBatch } from './bbolt/index.js';
import { planBolt, storedInline, type BoltPlan, type PlannedBucket } from './bbolt/planned-bolt.js';
import type { ElementSizes } from './bbolt/tree-layout.js';
import { Bucket, type ReadView } from '../storage/backend.js';
import { PRIVATE_CLUSTER_KEYS } from './stream.js';

/** The page size of every image (bbolt's default, etcd's). */
export const IMAGE_PAGE_SIZE = 4096;
/** Revision keys: 8 bytes main, '_', 8 bytes sub, and a tombstone's 't'. */
const REVISION_KEY = 17;
const BUCKETS = Object.values(Bucket);

/** What the layout needs of the `key` records, in revision order (RecordSizes has more). */
export interface KeyRecordSizes {
  readonly length: number;
  /** 1 when record i is a tombstone (its key has one byte more). */
  readonly tombstone: Uint8Array;
  /** Bytes of record i's value. */
  readonly valueLength: Uint32Array;
}

export interface PlannedImage {
  readonly plan: BoltPlan;
  /** The buckets to produce the pages from (writePlannedBolt), names ascending bytewise. */
  readonly buckets: readonly PlannedBucket[];
}

function elementSizes(records: KeyRecordSizes): ElementSizes {
  const { tombstone, valueLength } = records;
  return {
    length: records.length,
    keyLength: (i) => REVISION_KEY + tombstone[i]!,
    valueLength: (i) => valueLength[i]!,
  };
}

async function entriesOf(view: ReadView, bucket: Bucket, keepPrivateKeys: boolean): Promise<(readonly [Buffer, Buffer])[]> {
  const out: (readonly [Buffer, Buffer])[] = [];
  const skipPrivate = bucket === Bucket.Cluster && !keepPrivateKeys;
  for await (const e of view.iterate(bucket)) {
    if (skipPrivate && PRIVATE_CLUSTER_KEYS.has(e[0].toString('latin1'))) continue;
    out.push(e);
  }
  return out;
}

/** `view.batches(bucket)`, started only when first read (the plan never reads it). */
async function* lazyBatches(view: ReadView, bucket: Bucket): AsyncGenerator<BoltEntryBatch> {
  yield* view.batches(bucket);
}

/**
 * Every bucket of `view`, the `key` bucket by `records` (unless small enough to be inline), the
 * others read whole (the v2 store's key left out unless `keepPrivateKeys`); and the file's layout.
 */
export async function planImage(view: ReadView, records: KeyRecordSizes, keepPrivateKeys: boolean): Promise<PlannedImage> {
  const names = [...BUCKETS].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const sizes = elementSizes(records);
  const buckets: PlannedBucket[] = [];
  for (const name of names) {
    if (name === Bucket.Key && !storedInline(sizes, IMAGE_PAGE_SIZE)) {
      buckets.push({ name, sizes, batches: lazyBatches(view, name) });
    } else {
      buckets.push({ name, entries: await entriesOf(view, name, keepPrivateKeys) });
    }
  }
  return { plan: await planBolt(buckets, { pageSize: IMAGE_PAGE_SIZE }), buckets };
}
