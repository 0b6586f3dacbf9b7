/**
 * A write transaction's changes entering a store's memory once it ends: the key index (put or
 * tombstone per event), the hot-record cache, the unflushed map and the current revision.
 * What StoreWriteTxn.end does on the store that made the change and what a read replica does
 * with the same change fed to it (read-replica.ts), so that both hold the same state.
 */
import { Event_EventType, type Event } from '../../proto/gen/etcd/kv.js';
import type { KeyIndex } from './key-index.js';
import type { StoreState } from './state.js';

/**
 * Records the events of main revision `main` (newer than every change held); `names[sub]` is
 * the index name of event `sub`'s key, `entries[sub]` its index entry when the caller has it.
 */
export function takeEndedChange(state: StoreState, main: bigint, events: Event[], names: readonly string[], entries?: readonly (KeyIndex | undefined)[]): void {
  const m = Number(main);
  for (let sub = 0; sub < events.length; sub++) {
    const e = events[sub];
    const kv = e.kv!;
    if (e.type === Event_EventType.DELETE) {
      state.index.tombstone(names[sub], m, sub);
      state.cache.delete(names[sub]);
    } else {
      state.index.put(names[sub], m, sub, Number(kv.createRevision), Number(kv.version), kv.lease, entries?.[sub]);
      state.cache.set(names[sub], kv);
    }
  }
  state.unflushed.add(main, events);
  state.currentRevision = main;
}
