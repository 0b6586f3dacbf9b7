/**
 * Keeps the record ledger (record-ledger.ts) equal to the `key` bucket: after a backend batch
 * was written, `noteKeyOps` replays its `key`-bucket ops on the ledger (a put adds or replaces
 * the record with its tombstone mark and value length, a del removes it); ops on other buckets
 * are ignored. Callers run the write and this call in ONE io-queue task, so a pin taken
 * through the queue (store.ts pinSnapshot) never sees one without the other.
 */
import { Bucket, type BackendOp } from '../storage/backend.js';
import type { RecordLedger } from './record-ledger.js';
import { isTombstoneKeyAt, mainOfKeyAt, subOfKeyAt } from './revision.js';

export function noteKeyOps(ledger: RecordLedger, ops: readonly BackendOp[]): void {
  for (const op of ops) {
    if (op.bucket !== Bucket.Key) continue;
    const main = mainOfKeyAt(op.key, 0);
    const sub = subOfKeyAt(op.key, 0);
    if (op.type === 'put') ledger.add(main, sub, isTombstoneKeyAt(op.key, 0), op.value.length);
    else ledger.remove(main, sub);
  }
}
