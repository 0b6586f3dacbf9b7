/**
 * Recording a successful write: the event goes to the history, and (unless it is a TTL
 * refresh) to the watchers. Every write calls exactly one of these, after `index` moved.
 */
import type { StoreState } from './state.js';
import type { V2Event } from './types.js';

export function recordEvent(s: StoreState, e: V2Event): void {
  s.history.add(e);
  s.hub.notify(e);
}

/** Refresh events are kept in the history (they hold an index) but wake no watcher. */
export function recordRefresh(s: StoreState, e: V2Event): void {
  s.history.add(e);
}
