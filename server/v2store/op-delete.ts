/**
 * Writes that remove nodes: `delete` (dir / recursive), `compareAndDelete` (files only)
 * and `deleteExpired` (TTL expiry, driven by a replicated clock reading).
 *
 * Rules (etcd's store.Delete / CompareAndDelete / DeleteExpiredKeys):
 * - delete: read-only paths fail with 107; `recursive` implies `dir`; a directory without
 *   `dir` is 102, a non-empty one without `recursive` is 108;
 * - compareAndDelete: a directory is 102; a failed comparison is 101;
 * - the event node carries the key, `dir` for directories, the new modifiedIndex and the
 *   old createdIndex; prevNode is the node before removal;
 * - watchers of every removed path are offered the event, then the usual ancestors;
 * - deleteExpired removes, in (expiry, path) order, every node with expiry ≤ nowMs, one
 *   `expire` event (and one index) per node with a TTL.
 */
import { v2Fail, v2Ok, V2ErrorCode, type V2Result } from './errors.js';
import { compareFailCause, compareNode, CompareResult, flatRepr, type TreeNode } from './node.js';
import { cleanPath } from './path.js';
import { recordEvent } from './record.js';
import { lookup, removeNode, type StoreState } from './state.js';
import { V2Action, type V2Event, type V2Node } from './types.js';

export interface DeleteOptions {
  readonly dir?: boolean;
  readonly recursive?: boolean;
}

export interface CompareAndDeleteOptions {
  readonly prevValue?: string;
  readonly prevIndex?: bigint;
}

export function deleteNode(s: StoreState, path: string, opts: DeleteOptions, nowMs: number): V2Result<V2Event> {
  const p = cleanPath(path);
  if (s.readOnly.has(p)) return v2Fail(V2ErrorCode.RootReadOnly, '/', s.index);
  const recursive = opts.recursive ?? false;
  const dir = recursive || (opts.dir ?? false);
  const found = lookup(s, p);
  if (!found.ok) return found;
  const n = found.value;
  const next = s.index + 1n;
  const e: V2Event = { action: V2Action.Delete, node: removedNode(n, p, next), prevNode: flatRepr(n, nowMs), etcdIndex: next };
  const removed = removeNode(s, n, dir, recursive, (at) => s.hub.notifyRemoved(e, at));
  if (!removed.ok) return removed;
  s.index = next;
  recordEvent(s, e);
  return v2Ok(e);
}

export function compareAndDelete(s: StoreState, path: string, opts: CompareAndDeleteOptions, nowMs: number): V2Result<V2Event> {
  const p = cleanPath(path);
  const found = lookup(s, p);
  if (!found.ok) return found;
  const n = found.value;
  if (n.children) return v2Fail(V2ErrorCode.NotFile, p, s.index);
  const prevValue = opts.prevValue ?? '';
  const prevIndex = opts.prevIndex ?? 0n;
  const which = compareNode(n, prevValue, prevIndex);
  if (which !== CompareResult.Match) return v2Fail(V2ErrorCode.TestFailed, compareFailCause(n, which, prevValue, prevIndex), s.index);
  s.index += 1n;
  const e: V2Event = { action: V2Action.CompareAndDelete, node: removedNode(n, p, s.index), prevNode: flatRepr(n, nowMs), etcdIndex: s.index };
  removeNode(s, n, false, false, (at) => s.hub.notifyRemoved(e, at));
  recordEvent(s, e);
  return v2Ok(e);
}

/** Removes every node due at `nowMs`; returns the `expire` events in order. */
export function deleteExpired(s: StoreState, nowMs: number): V2Event[] {
  const events: V2Event[] = [];
  for (let n = s.ttl.top(); n !== undefined && (n.expireAt as number) <= nowMs; n = s.ttl.top()) {
    s.index += 1n;
    const e: V2Event = { action: V2Action.Expire, node: removedNode(n, n.path, s.index), prevNode: flatRepr(n, nowMs), etcdIndex: s.index };
    s.ttl.remove(n);
    removeNode(s, n, true, true, (at) => s.hub.notifyRemoved(e, at));
    recordEvent(s, e);
    events.push(e);
  }
  return events;
}

function removedNode(n: TreeNode, key: string, index: bigint): V2Node {
  return n.children
    ? { key, dir: true, modifiedIndex: index, createdIndex: n.createdIndex }
    : { key, modifiedIndex: index, createdIndex: n.createdIndex };
}
