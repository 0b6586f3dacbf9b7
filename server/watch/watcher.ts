/**
 * One watcher: its range, options, progress and group membership.
 *
 * Invariant (all groups): every matching event with revision < `minRev` has been handed to the
 * stream (sent or queued in its outbox) or was dropped by the watcher's filters; no event with
 * revision ≥ `minRev` has been. Delivery therefore advances `minRev` and never goes back.
 *
 * Groups (`state`):
 * - synced:   in the hub's key index; notify() delivers live events directly;
 * - unsynced: catching up from history in bounded batches, then moves to synced;
 * - victim:   a live delivery found its stream blocked and over the pending bound; waits for
 *             the stream to drain, then catches up as unsynced;
 * - detached: in no group: not yet registered, or cancelled, compacted or its stream closed;
 *             in-flight work for it is discarded.
 */
import { Event_EventType, type Event } from '../../proto/gen/etcd/kv.js';
import type { KeyRange } from './key-range.js';
import type { WatchStream } from './stream.js';

export const WatcherState = {
  Synced: 'synced',
  Unsynced: 'unsynced',
  Victim: 'victim',
  Detached: 'detached',
} as const;
export type WatcherState = (typeof WatcherState)[keyof typeof WatcherState];

export interface WatcherOptions {
  readonly noPut: boolean;
  readonly noDelete: boolean;
  readonly prevKv: boolean;
  readonly fragment: boolean;
  readonly progressNotify: boolean;
}

export interface Watcher {
  /** Hub-wide unique number (index identity). */
  readonly seq: number;
  /** The id the client sees, unique within its stream. */
  readonly id: bigint;
  readonly stream: WatchStream;
  readonly range: KeyRange;
  readonly options: WatcherOptions;
  /** The next revision this watcher needs. */
  minRev: bigint;
  state: WatcherState;
  /** No event response was sent since the last progress tick. */
  quiet: boolean;
  /** A history read for this watcher is in flight. */
  reading: boolean;
  /** The last history read failed (not Compacted); retried on the next kick. */
  parked: boolean;
}

const isCreate = (ev: Event): boolean => ev.type === Event_EventType.PUT && ev.kv !== undefined && ev.kv.createRevision === ev.kv.modRevision;

/**
 * The events as this watcher sees them: NOPUT/NODELETE applied, prevKv kept only when the
 * watcher asked for it and the event is not a creation. Never mutates the input events.
 */
export function viewEvents(w: Watcher, events: readonly Event[]): Event[] {
  const { noPut, noDelete, prevKv } = w.options;
  const out: Event[] = [];
  for (const ev of events) {
    if (noPut && ev.type === Event_EventType.PUT) continue;
    if (noDelete && ev.type === Event_EventType.DELETE) continue;
    const keep = prevKv && !isCreate(ev);
    out.push(keep || ev.prevKv === undefined ? ev : { ...ev, prevKv: undefined });
  }
  return out;
}
