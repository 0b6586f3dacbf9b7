/**
 * Rebuilds a store's memory from its backend: the meta entries and, from one scan of the
 * `key` bucket in revision order, the key index with every key's latest live record.
 *
 * The current revision is the newest record's main revision, but never below the compact
 * revision (a compaction may have removed the newest tombstones) nor below 1. Records left
 * by an interrupted compaction are tolerated (a tombstone of a key that is not live is
 * skipped); the caller then runs that compaction again.
 */
import type { Backend } from '../storage/backend.js';
import { Bucket } from '../storage/backend.js';
import { decodeKeyValue, peekKey } from './kv-codec.js';
import { readMeta, type MvccMeta } from './meta.js';
import { isRevisionKey, isTombstoneKey, mainOfKey, subOfKey } from './revision.js';
import { newStoreState, type StoreOptions, type StoreState } from './state.js';

export async function recoverState(backend: Backend, options?: StoreOptions): Promise<{ readonly state: StoreState; readonly meta: MvccMeta }> {
  const state = newStoreState(backend, options);
  const meta = await readMeta(backend);
  let newest = 0n;
  for await (const [key, value] of backend.iterate(Bucket.Key)) {
    if (!isRevisionKey(key)) throw new Error(`mvcc: malformed key in the key bucket: ${key.toString('hex')}`);
    const rev = { main: mainOfKey(key), sub: subOfKey(key) };
    if (isTombstoneKey(key)) state.index.restoreTombstone(peekKey(value), rev);
    else state.index.put(decodeKeyValue(value), rev);
    newest = rev.main;
  }
  let current = newest > 1n ? newest : 1n;
  if (meta.scheduledCompactRev > current) current = meta.scheduledCompactRev;
  if (meta.finishedCompactRev > current) current = meta.finishedCompactRev;
  state.currentRevision = current;
  state.consistentIndex = meta.consistentIndex;
  state.compactRevision = meta.finishedCompactRev;
  state.persistedScheduledCompact = meta.scheduledCompactRev;
  return { state, meta };
}
