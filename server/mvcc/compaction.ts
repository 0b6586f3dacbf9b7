/**
 * MvccStore.compact (ETCD-FACTS §3.6).
 *
 * Synchronous part: check the revision, compact the index (each key keeps its newest revision
 * ≤ rev unless that is a tombstone, plus everything newer), blank the pending changes that
 * became useless. From then on reads below rev fail with Compacted.
 * Background part (`done`), one compaction after another: wait for the flush in flight, record
 * scheduledCompactRev, delete every backend record with main ≤ rev that the index did not keep
 * (in batches, each written through the io queue together with the record ledger's removal
 * of its records), and record finishedCompactRev with the last batch. A restart that finds
 * scheduled > finished runs the compaction again (store.ts).
 */
import { fail, ok, type Result } from '../errors/domain-error.js';
import { Bucket, type BackendOp } from '../storage/backend.js';
import { noteKeyOps } from './ledger-ops.js';
import { finishedCompactOp, scheduledCompactOp } from './meta.js';
import { isTombstoneKeyAt, mainOfKeyAt, revisionBound, subOfKeyAt } from './revision.js';
import type { RevisionSet } from './revision-set.js';
import type { StoreState } from './state.js';

/** Deletions per backend batch. */
const DELETE_BATCH = 1000;

export function compact(state: StoreState, rev: bigint): Result<{ readonly done: Promise<void> }> {
  if (rev <= state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
  if (rev > state.currentRevision) return fail({ kind: 'FutureRev', currentRevision: state.currentRevision });
  return ok({ done: startCompaction(state, rev) });
}

/** Compacts at `rev` without checks (also used by recovery); resolves when the backend pass is done. */
export function startCompaction(state: StoreState, rev: bigint): Promise<void> {
  state.compactRevision = rev;
  const keep = state.index.compact(rev);
  state.unflushed.purge(rev, keep);
  state.feed?.compacted(rev);
  const done = state.compactionTail.then(() => removeCompacted(state, rev, keep));
  state.compactionTail = done.then(
    () => undefined,
    () => undefined, // reported through `done`
  );
  return done;
}

async function recordSchedule(state: StoreState): Promise<void> {
  const scheduled = state.compactRevision;
  if (scheduled <= state.persistedScheduledCompact) return;
  await state.backend.write([scheduledCompactOp(scheduled)], { sync: false });
  if (scheduled > state.persistedScheduledCompact) state.persistedScheduledCompact = scheduled;
}

/**
 * The backend pass: every record with main ≤ rev that is a tombstone or not in `keep` is
 * deleted. Keys are read in bulk batches (keys only) and checked in place; only the deleted
 * ones are cut out of their batch.
 */
async function removeCompacted(state: StoreState, rev: bigint, keep: RevisionSet): Promise<void> {
  // Through the io queue: every flush that could hold records ≤ rev has been written.
  await state.io.run(() => recordSchedule(state));
  let batch: BackendOp[] = [];
  for await (const { entries, keyStart } of state.backend.batches(Bucket.Key, { lt: revisionBound(rev + 1n), keysOnly: true })) {
    for (const [key] of entries) {
      if (!isTombstoneKeyAt(key, keyStart) && keep.has(mainOfKeyAt(key, keyStart), subOfKeyAt(key, keyStart))) continue;
      batch.push({ type: 'del', bucket: Bucket.Key, key: keyStart === 0 ? key : key.subarray(keyStart) });
    }
    if (batch.length >= DELETE_BATCH) {
      await writeDeletes(state, batch);
      batch = [];
    }
  }
  batch.push(finishedCompactOp(rev));
  await writeDeletes(state, batch);
}

/** Writes one delete batch and removes its records from the ledger, as ONE io task. */
function writeDeletes(state: StoreState, batch: readonly BackendOp[]): Promise<void> {
  return state.io.run(async () => {
    await state.backend.write(batch, { sync: false });
    noteKeyOps(state.ledger, batch);
  });
}
