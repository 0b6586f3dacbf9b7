/**
 * Writes that create a node: `create` (fails when the key exists; `unique` appends an
 * in-order name), and `set` (creates or replaces a file; `refresh` keeps the value and
 * only resets the TTL).
 *
 * Shared rules (etcd's internalCreate):
 * - `/`, `/0` and `/1` are read-only: 107, cause `/`;
 * - missing parent directories are created (permanent, with the new index); a file on the
 *   way fails with 104;
 * - an expiration before 2000-01-01 is treated as permanent;
 * - `set` never replaces a directory (102); `create` never replaces anything (105);
 * - the in-order name is the new index, zero-padded to 20 digits.
 */
import { v2Fail, v2Ok, V2ErrorCode, type V2Result } from './errors.js';
import { expiryOf, flatRepr, newDir, newFile } from './node.js';
import { cleanPath, splitPath } from './path.js';
import { ensureDir, lookup, removeNode, type StoreState } from './state.js';
import { V2Action, type V2Event, type V2Node } from './types.js';
import { recordEvent, recordRefresh } from './record.js';

/** Expirations before this instant (2000-01-01T00:00:00Z) mean "permanent". */
export const MIN_EXPIRATION_MS = 946_684_800_000;

export interface CreateOptions {
  readonly dir?: boolean;
  readonly value?: string;
  /** Append `/<20-digit index>` to the path (POST). */
  readonly unique?: boolean;
  readonly expiration?: number;
}

export interface SetOptions {
  readonly dir?: boolean;
  readonly value?: string;
  readonly expiration?: number;
  readonly refresh?: boolean;
}

export function create(s: StoreState, path: string, opts: CreateOptions, nowMs: number): V2Result<V2Event> {
  const r = internalCreate(s, path, opts.dir ?? false, opts.value ?? '', opts.unique ?? false, false, opts.expiration, V2Action.Create, nowMs);
  if (r.ok) recordEvent(s, r.value);
  return r;
}

export function set(s: StoreState, path: string, opts: SetOptions, nowMs: number): V2Result<V2Event> {
  const p = cleanPath(path);
  const existing = lookup(s, p);
  if (!existing.ok && existing.error.errorCode !== V2ErrorCode.KeyNotFound) return existing;
  let value = opts.value ?? '';
  if (opts.refresh) {
    if (!existing.ok) return existing;
    value = existing.value.value;
  }
  const r = internalCreate(s, p, opts.dir ?? false, value, false, true, opts.expiration, V2Action.Set, nowMs);
  if (!r.ok) return r;
  if (opts.refresh) {
    const e: V2Event = { ...r.value, refresh: true };
    recordRefresh(s, e);
    return v2Ok(e);
  }
  recordEvent(s, r.value);
  return r;
}

function internalCreate(
  s: StoreState,
  path: string,
  dir: boolean,
  value: string,
  unique: boolean,
  replace: boolean,
  expiration: number | undefined,
  action: V2Action,
  nowMs: number,
): V2Result<V2Event> {
  const next = s.index + 1n;
  const p = cleanPath(unique ? `${path}/${next.toString().padStart(20, '0')}` : path);
  if (s.readOnly.has(p)) return v2Fail(V2ErrorCode.RootReadOnly, '/', s.index);
  const expireAt = expiration !== undefined && expiration >= MIN_EXPIRATION_MS ? expiration : undefined;
  const { dir: parentPath, name } = splitPath(p);
  const parent = ensureDir(s, parentPath);
  if (!parent.ok) return parent;
  const d = parent.value;
  const children = d.children as NonNullable<typeof d.children>;
  const old = children.get(name);
  let prevNode: V2Node | undefined;
  if (old) {
    if (!replace) return v2Fail(V2ErrorCode.NodeExist, p, s.index);
    if (old.children) return v2Fail(V2ErrorCode.NotFile, p, s.index);
    prevNode = flatRepr(old, nowMs);
    removeNode(s, old, false, false, () => undefined);
  }
  const n = dir ? newDir(p, next, d, expireAt) : newFile(p, value, next, d, expireAt);
  children.set(name, n);
  if (expireAt !== undefined) s.ttl.push(n);
  s.index = next;
  const expiry = expiryOf(expireAt, nowMs);
  const node: V2Node = dir
    ? { key: p, dir: true, ...expiry, modifiedIndex: next, createdIndex: next }
    : { key: p, value, ...expiry, modifiedIndex: next, createdIndex: next };
  return v2Ok(prevNode ? { action, node, prevNode, etcdIndex: next } : { action, node, etcdIndex: next });
}
