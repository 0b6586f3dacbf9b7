/**
 * Reads: `get` and `watch`.
 *
 * - get: a file with its value; a directory with its direct (non-hidden) children, their
 *   own children too when `recursive`; children in key order when `sorted`, in insertion
 *   order otherwise (etcd: unspecified). Hidden nodes can still be read by their own path.
 *   The event's etcdIndex is the current store index.
 * - watch: `sinceIndex` 0 means the next write. When the history already holds a
 *   matching event at or after sinceIndex it is returned at once (etcdIndex = current
 *   index) and nothing is registered; otherwise `onEvent` is registered. 401 when
 *   sinceIndex is older than the history (error index = current store index).
 */
import { v2Fail, v2Ok, type V2Result } from './errors.js';
import { expiryOf, listing } from './node.js';
import { cleanPath } from './path.js';
import { lookup, type StoreState } from './state.js';
import { V2Action, type V2Event, type V2Watch, type V2WatchOptions } from './types.js';

export interface GetOptions {
  readonly recursive?: boolean;
  readonly sorted?: boolean;
}

export function get(s: StoreState, path: string, opts: GetOptions, nowMs: number): V2Result<V2Event> {
  const p = cleanPath(path);
  const found = lookup(s, p);
  if (!found.ok) return found;
  const n = found.value;
  const expiry = expiryOf(n.expireAt, nowMs);
  const indices = { modifiedIndex: n.modifiedIndex, createdIndex: n.createdIndex };
  const node = n.children
    ? { key: p, dir: true as const, ...expiry, ...listing(n, opts.recursive ?? false, opts.sorted ?? false, nowMs), ...indices }
    : { key: p, value: n.value, ...expiry, ...indices };
  return v2Ok({ action: V2Action.Get, node, etcdIndex: s.index });
}

export function watch(s: StoreState, path: string, opts: V2WatchOptions, onEvent: (e: V2Event) => void): V2Result<V2Watch> {
  const key = cleanPath(path);
  const since = opts.sinceIndex === undefined || opts.sinceIndex === 0n ? s.index + 1n : opts.sinceIndex;
  const recursive = opts.recursive ?? false;
  const found = s.history.scan(key, recursive, since);
  if (!found.ok) return v2Fail(found.error.errorCode, found.error.cause ?? '', s.index);
  const startIndex = s.index;
  if (found.value) {
    return v2Ok({ startIndex, event: { ...found.value, etcdIndex: startIndex }, cancel: () => undefined });
  }
  const cancel = s.hub.add(key, recursive, opts.stream ?? false, since, onEvent);
  return v2Ok({ startIndex, cancel });
}
