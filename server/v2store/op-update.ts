/**
 * Writes that change an existing node in place: `update` (prevExist=true) and
 * `compareAndSwap` (prevValue / prevIndex).
 *
 * Rules (etcd's store.Update / store.CompareAndSwap):
 * - read-only paths fail with 107 (cause `/`); a missing key with 100;
 * - update: a directory takes only a TTL change (a non-empty value fails with 102); as in
 *   etcd, the directory's own modifiedIndex stays unchanged although the event reports
 *   the new index;
 * - compareAndSwap: files only (102); a failed comparison is 101 with the cause from
 *   `compareFailCause`;
 * - the createdIndex is kept; the expiration is replaced (absent = permanent);
 * - `refresh` keeps the value; the event is then recorded without waking watchers.
 */
import { v2Fail, v2Ok, V2ErrorCode, type V2Result } from './errors.js';
import { compareFailCause, compareNode, CompareResult, expiryOf, flatRepr, type TreeNode } from './node.js';
import { cleanPath } from './path.js';
import { recordEvent, recordRefresh } from './record.js';
import { lookup, type StoreState } from './state.js';
import { V2Action, type V2Event, type V2Node } from './types.js';

export interface UpdateOptions {
  readonly value?: string;
  readonly expiration?: number;
  readonly refresh?: boolean;
}

export interface CompareAndSwapOptions extends UpdateOptions {
  readonly prevValue?: string;
  readonly prevIndex?: bigint;
}

export function update(s: StoreState, path: string, opts: UpdateOptions, nowMs: number): V2Result<V2Event> {
  const p = cleanPath(path);
  if (s.readOnly.has(p)) return v2Fail(V2ErrorCode.RootReadOnly, '/', s.index);
  const found = lookup(s, p);
  if (!found.ok) return found;
  const n = found.value;
  let value = opts.value ?? '';
  if (n.children && value !== '') return v2Fail(V2ErrorCode.NotFile, p, s.index);
  if (opts.refresh) value = n.value;
  const next = s.index + 1n;
  const prevNode = flatRepr(n, nowMs);
  if (!n.children) {
    n.value = value;
    n.modifiedIndex = next;
  }
  setExpiration(s, n, opts.expiration);
  const expiry = expiryOf(n.expireAt, nowMs);
  const node: V2Node = n.children
    ? { key: p, dir: true, ...expiry, modifiedIndex: next, createdIndex: n.createdIndex }
    : { key: p, value, ...expiry, modifiedIndex: next, createdIndex: n.createdIndex };
  s.index = next;
  return finish(s, { action: V2Action.Update, node, prevNode, etcdIndex: next }, opts.refresh ?? false);
}

export function compareAndSwap(s: StoreState, path: string, opts: CompareAndSwapOptions, nowMs: number): V2Result<V2Event> {
  const p = cleanPath(path);
  if (s.readOnly.has(p)) return v2Fail(V2ErrorCode.RootReadOnly, '/', s.index);
  const found = lookup(s, p);
  if (!found.ok) return found;
  const n = found.value;
  if (n.children) return v2Fail(V2ErrorCode.NotFile, p, s.index);
  const prevValue = opts.prevValue ?? '';
  const prevIndex = opts.prevIndex ?? 0n;
  const which = compareNode(n, prevValue, prevIndex);
  if (which !== CompareResult.Match) return v2Fail(V2ErrorCode.TestFailed, compareFailCause(n, which, prevValue, prevIndex), s.index);
  const value = opts.refresh ? n.value : (opts.value ?? '');
  const next = s.index + 1n;
  s.index = next;
  const prevNode = flatRepr(n, nowMs);
  n.value = value;
  n.modifiedIndex = next;
  setExpiration(s, n, opts.expiration);
  const node: V2Node = { key: p, value, ...expiryOf(n.expireAt, nowMs), modifiedIndex: next, createdIndex: n.createdIndex };
  return finish(s, { action: V2Action.CompareAndSwap, node, prevNode, etcdIndex: next }, opts.refresh ?? false);
}

function finish(s: StoreState, e: V2Event, refresh: boolean): V2Result<V2Event> {
  if (!refresh) {
    recordEvent(s, e);
    return v2Ok(e);
  }
  const r: V2Event = { ...e, refresh: true };
  recordRefresh(s, r);
  return v2Ok(r);
}

/** etcd's node.UpdateTTL: moves the node into, within or out of the TTL heap. */
function setExpiration(s: StoreState, n: TreeNode, expireAt: number | undefined): void {
  const had = n.expireAt !== undefined;
  n.expireAt = expireAt;
  if (expireAt === undefined) {
    if (had) s.ttl.remove(n);
  } else if (had) {
    s.ttl.update(n);
  } else {
    s.ttl.push(n);
  }
}
