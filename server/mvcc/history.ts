/**
 * MvccStore.history: the events with main revision in [from, to] on keys in the range, in
 * revision order (sub revision order within a transaction), each with prevKv when the key
 * had a previous live value. `to` above the current revision is clamped.
 * Errors: Compacted when from < compact revision (also when a compaction overtook the read
 * while it waited for the disk). At the compact revision itself only what compaction kept is
 * returned, without prevKv (the older value is gone), as etcd does.
 *
 * Two ways to the same answer: a range of at most `historyIndexMaxKeys` keys is served from
 * the key index (history-index.ts), a wider one by scanning the revision window
 * (history-scan.ts).
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import type { KeyIndex } from './key-index.js';
import { keyBounds } from './key-range.js';
import { historyByIndex } from './history-index.js';
import { historyByScan } from './history-scan.js';
import type { StoreState } from './state.js';

export async function history(state: StoreState, from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>> {
  if (from < state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
  const last = to < state.currentRevision ? to : state.currentRevision;
  const bounds = keyBounds(key, rangeEnd);
  if (from > last || bounds.kind === 'none') return ok([]);
  const max = state.historyIndexMaxKeys;
  if (max > 0) {
    const kis: KeyIndex[] = [];
    let few = true;
    state.index.forEachInRange(bounds, (ki) => {
      if (kis.length < max) kis.push(ki);
      else few = false;
    });
    if (few) return historyByIndex(state, from, last, kis);
  }
  return historyByScan(state, from, last, bounds);
}
