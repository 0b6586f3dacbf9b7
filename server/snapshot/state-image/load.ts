/**
 * Loading a state image (a bbolt file, FORMAT.md) into a backend, replacing everything the
 * backend held. The file is read page by page through the bbolt reader (bbolt/reader.ts) and
 * written in batches of about BATCH_BYTES, so memory stays bounded whatever its size.
 *
 * Before anything is written the image is checked: every bucket it holds must be one of
 * kvstore's (`Bucket`), and its `meta` bucket must hold `consistent_index`. A bucket of
 * kvstore's that the image lacks ends up empty.
 *
 * The replacement is not one batch, so it is made restartable instead: the first (synced)
 * batch sets `consistent_index` to 0, the old contents are deleted and the image's records
 * written in batches, and the last (synced) batch writes the image's own `consistent_index`.
 * A member stopped midway finds its backend behind the snapshot its log records and loads the
 * kept image again (bootstrap/start-member.ts), which starts by deleting everything again.
 */
import { consistentIndexOp, META_CONSISTENT_INDEX } from '../../mvcc/meta.js';
import { Bucket, type Backend, type BackendOp } from '../../storage/backend.js';
import { openBolt, openBoltBytes, type BoltReader } from '../bbolt/index.js';

const BUCKETS: readonly Bucket[] = Object.values(Bucket);
/** Bytes of records per backend batch while loading. */
const BATCH_BYTES = 4 * 1024 * 1024;

/** The image's `consistent_index` record; throws when the image is not one kvstore can load. */
async function checkedImage(reader: BoltReader): Promise<Buffer> {
  const unknown = reader.bucketNames().filter((name) => !(BUCKETS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`state image holds buckets kvstore does not have: ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  }
  if (reader.bucketNames().includes(Bucket.Meta)) {
    for await (const [key, value] of reader.entries(Bucket.Meta)) if (key.equals(META_CONSISTENT_INDEX)) return Buffer.from(value);
  }
  throw new Error('state image holds no meta/consistent_index');
}

/** Replaces everything `backend` holds with the image `reader` reads (see the header). */
export async function loadImage(backend: Backend, reader: BoltReader): Promise<void> {
  const consistentIndex = await checkedImage(reader);
  await backend.write([consistentIndexOp(0n)], { sync: true });
  let ops: BackendOp[] = [];
  let bytes = 0;
  /** Adds `op` to the batch; true once the batch is full. */
  const add = (op: BackendOp): boolean => {
    ops.push(op);
    bytes += op.key.length + (op.type === 'put' ? op.value.length : 0) + 16;
    return bytes >= BATCH_BYTES;
  };
  const writeBatch = async (): Promise<void> => {
    await backend.write(ops, { sync: false });
    ops = [];
    bytes = 0;
  };
  for (const bucket of BUCKETS) {
    for await (const { entries, keyStart } of backend.batches(bucket, { keysOnly: true })) {
      let full = false;
      for (const [key] of entries) full = add({ type: 'del', bucket, key: Buffer.from(key.subarray(keyStart)) }) || full;
      if (full) await writeBatch();
    }
  }
  for (const name of reader.bucketNames()) {
    const bucket = name as Bucket;
    for await (const batch of reader.entryBatches(bucket)) {
      let full = false;
      for (const [key, value] of batch) {
        if (bucket === Bucket.Meta && key.equals(META_CONSISTENT_INDEX)) continue;
        full = add({ type: 'put', bucket, key, value }) || full;
      }
      if (full) await writeBatch();
    }
  }
  ops.push({ type: 'put', bucket: Bucket.Meta, key: META_CONSISTENT_INDEX, value: consistentIndex });
  await backend.write(ops, { sync: true });
}

/** Loads the image of `opened` into `backend` (see loadImage), closing the reader whatever happens. */
async function loadFrom(backend: Backend, opened: Promise<BoltReader>): Promise<void> {
  const reader = await opened;
  try {
    await loadImage(backend, reader);
  } finally {
    await reader.close();
  }
}

/** Replaces the backend's contents with the image file at `path` (trailer and all; see loadImage). */
export function loadImageFile(backend: Backend, path: string): Promise<void> {
  return loadFrom(backend, openBolt(path));
}

/** Replaces the backend's contents with an image held in memory (the simulation's; see loadImage). */
export function loadImageBytes(backend: Backend, image: Buffer): Promise<void> {
  return loadFrom(backend, openBoltBytes(image));
}
