/**
 * History by scanning the revision window: flushed revisions come from one backend scan
 * (keys are matched on the marshalled record without decoding the rest); newer ones are the
 * events held by the unflushed map (their prevKv is already known). A prevKv older than the
 * window is found through the index; an unread prevKv of an unflushed put (unread-prev.ts) is
 * read by its revision. Suits wide key ranges.
 */
import { Event_EventType, type Event, type KeyValue } from '../../proto/gen/etcd/kv.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import { Bucket } from '../storage/backend.js';
import { newBufferMap } from '../storage/sorted-map.js';
import type { KeyIndex } from './key-index.js';
import { inBounds, type KeyBounds } from './key-range.js';
import { decodeKeyValue, deletionKeyValue, peekKey } from './kv-codec.js';
import { readRecord, vanished } from './read.js';
import { isTombstoneKey, mainOfKey, revisionBound, subOfKey, type Revision } from './revision.js';
import type { StoreState } from './state.js';
import { readPrevAsync } from './unread-prev.js';

interface PrevLookup {
  readonly event: Event;
  readonly ki: KeyIndex;
  readonly rev: Revision;
}

/** History over [from, last] (last ≤ current, from ≥ compact revision) from one scan of the revision window. */
export async function historyByScan(state: StoreState, from: bigint, last: bigint, bounds: KeyBounds): Promise<Result<Event[]>> {
  // Taken together, synchronously: below `lowest` every record is in the backend.
  const lowest = state.unflushed.lowest() ?? state.currentRevision + 1n;
  const groups = state.unflushed.between(from, last);
  const scanEnd = last + 1n < lowest ? last + 1n : lowest;

  const events: Event[] = [];
  const lookups: PrevLookup[] = [];
  if (from < scanEnd) {
    const seen = newBufferMap<Event>();
    for await (const [rkey, value] of state.backend.iterate(Bucket.Key, { gte: revisionBound(from), lt: revisionBound(scanEnd) })) {
      const userKey = peekKey(value);
      if (!inBounds(bounds, userKey)) continue;
      const rev: Revision = { main: mainOfKey(rkey), sub: subOfKey(rkey) };
      const ki = state.index.get(userKey);
      if (rev.main <= state.compactRevision && (ki === undefined || !ki.has(rev))) continue; // compaction leftover
      if (ki === undefined) throw new Error('mvcc: backend record of a key the index does not know');
      const tombstone = isTombstoneKey(rkey);
      const event: Event = tombstone
        ? { type: Event_EventType.DELETE, kv: deletionKeyValue(userKey, rev.main), prevKv: undefined }
        : { type: Event_EventType.PUT, kv: decodeKeyValue(value), prevKv: undefined };
      const before = seen.get(userKey);
      if (before !== undefined) {
        if (before.type === Event_EventType.PUT) event.prevKv = before.kv;
      } else {
        const prevRev = ki.previous(rev);
        if (prevRev !== undefined) lookups.push({ event, ki, rev: prevRev });
      }
      seen.set(userKey, event);
      events.push(event);
    }
  }
  // Groups ascend by revision: those at or below the compact revision come first, then `recent`.
  const recent: Event[] = [];
  for (const [main, group] of groups) {
    if (main > state.compactRevision) {
      for (const e of group) if (e !== undefined && inBounds(bounds, e.kv!.key)) recent.push(e);
      continue;
    }
    // At the compact revision only what compaction kept remains, and its previous value is gone.
    for (let sub = 0; sub < group.length; sub++) {
      const e = group[sub];
      if (e === undefined || !inBounds(bounds, e.kv!.key) || state.index.get(e.kv!.key)?.has({ main, sub }) !== true) continue;
      events.push(e.prevKv === undefined ? e : { type: e.type, kv: e.kv, prevKv: undefined });
    }
  }
  // A put's prevKv may be unread (unread-prev.ts): read now, as the scan does for flushed ones.
  for (const e of await readPrevAsync(state, recent)) events.push(e);

  if (lookups.length > 0) {
    const prevs: (KeyValue | undefined)[] = await Promise.all(lookups.map((l) => readRecord(state, l.rev)));
    for (let i = 0; i < lookups.length; i++) {
      const prev = prevs[i];
      if (prev === undefined) return vanished(state, from);
      lookups[i]!.event.prevKv = prev;
    }
  }
  if (from < state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
  return ok(events);
}
