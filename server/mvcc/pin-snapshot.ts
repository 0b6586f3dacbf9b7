/**
 * MvccStore.pinSnapshot: a pinned backend view and the frozen record ledger that describes
 * its `key` bucket exactly. Both are taken in ONE io-queue task: every key-bucket write
 * (flush, compaction delete batches) runs in its own io task and updates the ledger in that
 * same task, so between the view and the freeze nothing can change the bucket.
 * The changes not flushed yet are in neither (the caller flushes first if it needs them).
 */
import type { Backend } from '../storage/backend.js';
import type { Pinned } from './types.js';
import type { StoreState } from './state.js';

/**
 * Pins `state` unless `current()` no longer returns it once the task runs (the store swapped
 * its state meanwhile): then resolves undefined and the caller pins the current state.
 */
export function pinSnapshot<V>(state: StoreState, current: () => StoreState, pinView: (backend: Backend) => Promise<V>): Promise<Pinned<V> | undefined> {
  return state.io.run(async () => {
    if (current() !== state) return undefined;
    const view = await pinView(state.backend);
    return { view, records: state.ledger.freeze() };
  });
}
