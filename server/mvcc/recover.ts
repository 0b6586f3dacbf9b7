/**
 * Rebuilds a store's memory from its backend: the meta entries and, from one scan of the
 * `key` bucket in revision order, the key index. Values are not decoded: each record gives
 * only its key and, for a put, the create revision, version and lease (`peekRecordMeta`),
 * so recovery costs time in the number of records and memory in the number of keys. Every
 * record also goes into the record ledger (revision, tombstone mark, stored value length).
 *
 * The current revision is the newest record's main revision, but never below the compact
 * revision (a compaction may have removed the newest tombstones) nor below 1. Records left
 * by an interrupted compaction are tolerated (a tombstone of a key that is not live is
 * skipped); the caller then runs that compaction again.
 */
import type { Backend } from '../storage/backend.js';
import { Bucket } from '../storage/backend.js';
import { peekKey, peekRecordMeta } from './kv-codec.js';
import { readMeta, type MvccMeta } from './meta.js';
import { isRevisionKey, isTombstoneKey, subOfKey } from './revision.js';
import { newStoreState, type StoreOptions, type StoreState } from './state.js';

const EMPTY = Buffer.alloc(0);

/** Main revision of a backend key as a number. */
function mainNumber(key: Buffer): number {
  return key.readUInt32BE(0) * 0x100000000 + key.readUInt32BE(4);
}

export async function recoverState(backend: Backend, options?: StoreOptions): Promise<{ readonly state: StoreState; readonly meta: MvccMeta }> {
  const state = newStoreState(backend, options);
  const meta = await readMeta(backend);
  const index = state.index;
  const ledger = state.ledger;
  let newest = 0;
  // In bulk batches (up to 1000 entries / 1 MiB per LevelDB read, the next read in flight while
  // this one is indexed): no promise or generator step per record.
  for await (const batch of backend.batches(Bucket.Key)) {
    const start = batch.keyStart;
    for (const [stored, storedValue] of batch.entries) {
      const key = start === 0 ? stored : stored.subarray(start);
      const value = storedValue ?? EMPTY;
      if (!isRevisionKey(key)) throw new Error(`mvcc: malformed key in the key bucket: ${key.toString('hex')}`);
      const main = mainNumber(key);
      const sub = subOfKey(key);
      const tombstone = isTombstoneKey(key);
      ledger.add(main, sub, tombstone, value.length);
      if (tombstone) {
        index.restoreTombstone(peekKey(value).toString('latin1'), main, sub);
      } else {
        const m = peekRecordMeta(value);
        index.put(m.key.toString('latin1'), main, sub, m.createRevision, m.version, m.lease);
      }
      newest = main;
    }
  }
  let current = newest > 1 ? BigInt(newest) : 1n;
  if (meta.scheduledCompactRev > current) current = meta.scheduledCompactRev;
  if (meta.finishedCompactRev > current) current = meta.finishedCompactRev;
  state.currentRevision = current;
  state.consistentIndex = meta.consistentIndex;
  state.compactRevision = meta.finishedCompactRev;
  state.persistedScheduledCompact = meta.scheduledCompactRev;
  return { state, meta };
}
