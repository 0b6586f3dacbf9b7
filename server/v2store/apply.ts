/**
 * Applying a replicated v2 request: the choice of store operation, exactly as etcd's
 * v2 applier makes it (etcdserver/apply_v2.go):
 * - PUT with prevExist=true: update, or compareAndSwap when prevValue/prevIndex is given;
 *   prevExist=false: create; else prevValue/prevIndex: compareAndSwap; else set;
 * - POST: create an in-order key (unique name) under the path;
 * - DELETE: compareAndDelete when prevValue/prevIndex is given, else delete;
 * - GET: a read through the log (quorum read); changes nothing.
 * `nowMs` only renders TTLs in the answer; expirations come from the request itself.
 */
import type { V2Result } from './errors.js';
import type { CreateOptions, SetOptions } from './op-create.js';
import type { CompareAndDeleteOptions, DeleteOptions } from './op-delete.js';
import type { GetOptions } from './op-read.js';
import type { CompareAndSwapOptions, UpdateOptions } from './op-update.js';
import { V2Method, type V2Event, type V2Request } from './types.js';

/** The store operations `apply` dispatches to. */
export interface V2Operations {
  get(path: string, opts: GetOptions, nowMs: number): V2Result<V2Event>;
  set(path: string, opts: SetOptions, nowMs: number): V2Result<V2Event>;
  create(path: string, opts: CreateOptions, nowMs: number): V2Result<V2Event>;
  update(path: string, opts: UpdateOptions, nowMs: number): V2Result<V2Event>;
  compareAndSwap(path: string, opts: CompareAndSwapOptions, nowMs: number): V2Result<V2Event>;
  delete(path: string, opts: DeleteOptions, nowMs: number): V2Result<V2Event>;
  compareAndDelete(path: string, opts: CompareAndDeleteOptions, nowMs: number): V2Result<V2Event>;
}

export function applyRequest(store: V2Operations, req: V2Request, nowMs: number): V2Result<V2Event> {
  const compares = (req.prevIndex ?? 0n) > 0n || (req.prevValue ?? '') !== '';
  const ttl = { expiration: req.expiration, refresh: req.refresh ?? false };
  const swap = { value: req.value, prevValue: req.prevValue, prevIndex: req.prevIndex, ...ttl };
  switch (req.method) {
    case V2Method.Put:
      if (req.prevExist === true) return compares ? store.compareAndSwap(req.path, swap, nowMs) : store.update(req.path, { value: req.value, ...ttl }, nowMs);
      if (req.prevExist === false) return store.create(req.path, { dir: req.dir, value: req.value, expiration: req.expiration }, nowMs);
      if (compares) return store.compareAndSwap(req.path, swap, nowMs);
      return store.set(req.path, { dir: req.dir, value: req.value, ...ttl }, nowMs);
    case V2Method.Post:
      return store.create(req.path, { dir: req.dir, value: req.value, unique: true, expiration: req.expiration }, nowMs);
    case V2Method.Delete:
      if (compares) return store.compareAndDelete(req.path, { prevValue: req.prevValue, prevIndex: req.prevIndex }, nowMs);
      return store.delete(req.path, { dir: req.dir, recursive: req.recursive }, nowMs);
    case V2Method.Get:
      return store.get(req.path, { recursive: req.recursive, sorted: req.sorted }, nowMs);
    default: {
      const method: never = req.method;
      throw new Error(`v2 apply: unknown method ${String(method)}`);
    }
  }
}
