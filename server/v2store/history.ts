/**
 * The event history behind `waitIndex`: the last `capacity` events (1000 in etcd), oldest
 * first, one per store write, so consecutive entries have consecutive indices.
 *
 * `scan(key, recursive, index)` finds the first event at or after `index` that concerns
 * `key` (etcd's EventHistory.scan):
 * - the event's key is `key`, or (recursive) lies under `key/`;
 * - or it deleted/expired a directory that contains `key`;
 * - refresh events never match.
 * An index older than the oldest kept event fails with 401 (cause
 * `the requested history has been cleared [<oldest>/<index>]`); an index past the newest
 * event finds nothing.
 */
import { v2Fail, v2Ok, V2ErrorCode, type V2Result } from './errors.js';
import { V2Action, type V2Event } from './types.js';

export class EventHistory {
  readonly capacity: number;
  #events: V2Event[] = [];

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`history capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
  }

  add(e: V2Event): void {
    this.#events.push(e);
    if (this.#events.length > this.capacity) this.#events.shift();
  }

  /** Oldest first. */
  events(): readonly V2Event[] {
    return this.#events;
  }

  /** Replaces the content (snapshot restore); keeps the newest `capacity` events. */
  replace(events: readonly V2Event[]): void {
    this.#events = events.slice(Math.max(0, events.length - this.capacity));
  }

  /** Index of the oldest kept event (0 when empty). */
  startIndex(): bigint {
    return this.#events[0]?.node.modifiedIndex ?? 0n;
  }

  lastIndex(): bigint {
    return this.#events[this.#events.length - 1]?.node.modifiedIndex ?? 0n;
  }

  /** `value` is undefined when no kept event matches (the caller then waits). Error index is 0; the store sets its own. */
  scan(key: string, recursive: boolean, index: bigint): V2Result<V2Event | undefined> {
    const start = this.startIndex();
    if (index < start) {
      return v2Fail(V2ErrorCode.EventIndexCleared, `the requested history has been cleared [${start}/${index}]`, 0n);
    }
    if (index > this.lastIndex()) return v2Ok(undefined);
    const prefix = key.endsWith('/') ? key : `${key}/`;
    for (let i = Number(index - start); i < this.#events.length; i++) {
      const e = this.#events[i] as V2Event;
      if (e.refresh) continue;
      let match = e.node.key === key || (recursive && e.node.key.startsWith(prefix));
      if ((e.action === V2Action.Delete || e.action === V2Action.Expire) && e.prevNode?.dir) {
        match ||= key.startsWith(e.prevNode.key);
      }
      if (match) return v2Ok(e);
    }
    return v2Ok(undefined);
  }
}
