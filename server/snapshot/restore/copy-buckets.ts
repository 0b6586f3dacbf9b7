/**
 * Copies etcd's bbolt buckets into a kvstore LevelDB backend, as both an etcd snapshot restore
 * (build-data-dir.ts) and a start on an etcd data dir (bootstrap/etcd-import/) need: every bucket
 * `backend-rewrite.ts` keeps is copied record by record in batches, the ones it drops are named
 * in `skippedBuckets`, and `finalOps` (the member list and consistent index) are written last,
 * with the batch, in one synced write. The backend is closed at the end; the reader is not.
 */
import type { BackendOp } from '../../storage/backend.js';
import { openLevelBackend } from '../../storage/level-backend.js';
import { bucketFate, copyOp } from './backend-rewrite.js';

const BATCH_OPS = 2000;

/** What is read of a bbolt file: its bucket names and each bucket's records in key order. */
export interface BucketReader {
  bucketNames(): Iterable<string>;
  entries(bucket: string): AsyncIterable<readonly [Uint8Array, Uint8Array]>;
}

export interface CopiedBuckets {
  readonly copied: number;
  readonly skippedBuckets: string[];
}

/** `onBytes(n)`: after each batch, the key and value bytes read so far (for progress). */
export async function copyBuckets(reader: BucketReader, backendPath: string, finalOps: readonly BackendOp[], onBytes?: (bytes: number) => void): Promise<CopiedBuckets> {
  const backend = await openLevelBackend(backendPath);
  const skippedBuckets: string[] = [];
  let copied = 0;
  let bytes = 0;
  try {
    let batch: BackendOp[] = [];
    for (const name of reader.bucketNames()) {
      if (bucketFate(name) === 'skip') skippedBuckets.push(name);
      if (bucketFate(name) !== 'copy') continue;
      for await (const [k, v] of reader.entries(name)) {
        const op = copyOp(name, Buffer.from(k), Buffer.from(v));
        bytes += k.length + v.length;
        if (op === undefined) continue;
        batch.push(op);
        copied++;
        if (batch.length >= BATCH_OPS) {
          await backend.write(batch);
          batch = [];
          onBytes?.(bytes);
        }
      }
    }
    await backend.write([...batch, ...finalOps], { sync: true });
  } finally {
    await backend.close();
  }
  return { copied, skippedBuckets };
}
