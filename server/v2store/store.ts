/**
 * V2Store: etcd's v2 key space as a pure, deterministic state machine.
 *
 * Contract:
 * - synchronous, no clock, no I/O: every call that renders TTLs takes `nowMs`, expiry
 *   happens only through `deleteExpired(nowMs)`, which the member drives with a clock
 *   reading replicated through its log (so all members expire the same keys at the same
 *   index);
 * - every successful write increments `index()` by one and produces one event, kept in a
 *   bounded history (default 1000) for `watch`; failed writes change nothing;
 * - expected failures are `V2Error` values (errors.ts), never exceptions;
 * - the namespaces (default `/0` and `/1`) and `/` exist from the start and are read-only;
 * - watcher callbacks run synchronously inside the write that produced the event and must
 *   not call back into the store.
 */
import { applyRequest } from './apply.js';
import type { V2Result } from './errors.js';
import { EventHistory } from './history.js';
import { newDir, type TreeNode } from './node.js';
import { create, set, type CreateOptions, type SetOptions } from './op-create.js';
import { compareAndDelete, deleteExpired, deleteNode, type CompareAndDeleteOptions, type DeleteOptions } from './op-delete.js';
import { get, watch, type GetOptions } from './op-read.js';
import { compareAndSwap, update, type CompareAndSwapOptions, type UpdateOptions } from './op-update.js';
import { cleanPath } from './path.js';
import { decodeSnapshot, encodeSnapshot, type V2SnapshotJSON } from './snapshot.js';
import type { StoreState } from './state.js';
import { TtlHeap } from './ttl-heap.js';
import type { V2Event, V2Request, V2Watch, V2WatchOptions } from './types.js';
import { WatcherHub } from './watcher-hub.js';

/** etcd's namespaces: cluster-internal keys and the user key space. */
export const DEFAULT_NAMESPACES: readonly string[] = ['/0', '/1'];
export const DEFAULT_HISTORY_CAPACITY = 1000;

export interface V2StoreOptions {
  readonly namespaces?: readonly string[];
  readonly historyCapacity?: number;
}

/** Bytes counted per node on top of its key and value (indices, expiry, bookkeeping). */
const NODE_OVERHEAD_BYTES = 64;

export class V2Store {
  readonly #s: StoreState;
  readonly #namespaces: readonly string[];

  constructor(options: V2StoreOptions = {}) {
    this.#namespaces = (options.namespaces ?? DEFAULT_NAMESPACES).map(cleanPath);
    for (const ns of this.#namespaces) {
      if (ns === '/' || ns.indexOf('/', 1) >= 0) throw new RangeError(`v2 namespace must be one path segment, got ${ns}`);
    }
    this.#s = {
      root: newDir('/', 0n, undefined, undefined),
      index: 0n,
      readOnly: new Set(['/', ...this.#namespaces]),
      ttl: new TtlHeap(),
      history: new EventHistory(options.historyCapacity ?? DEFAULT_HISTORY_CAPACITY),
      hub: new WatcherHub(),
    };
    for (const ns of this.#namespaces) {
      const name = ns.slice(1);
      this.#s.root.children?.set(name, newDir(ns, 0n, this.#s.root, undefined));
    }
  }

  /** Index of the last write (0 for a fresh store). */
  index(): bigint {
    return this.#s.index;
  }

  get(path: string, opts: GetOptions, nowMs: number): V2Result<V2Event> {
    return get(this.#s, path, opts, nowMs);
  }

  set(path: string, opts: SetOptions, nowMs: number): V2Result<V2Event> {
    return set(this.#s, path, opts, nowMs);
  }

  create(path: string, opts: CreateOptions, nowMs: number): V2Result<V2Event> {
    return create(this.#s, path, opts, nowMs);
  }

  update(path: string, opts: UpdateOptions, nowMs: number): V2Result<V2Event> {
    return update(this.#s, path, opts, nowMs);
  }

  compareAndSwap(path: string, opts: CompareAndSwapOptions, nowMs: number): V2Result<V2Event> {
    return compareAndSwap(this.#s, path, opts, nowMs);
  }

  delete(path: string, opts: DeleteOptions, nowMs: number): V2Result<V2Event> {
    return deleteNode(this.#s, path, opts, nowMs);
  }

  compareAndDelete(path: string, opts: CompareAndDeleteOptions, nowMs: number): V2Result<V2Event> {
    return compareAndDelete(this.#s, path, opts, nowMs);
  }

  /** Removes every node whose expiry is ≤ nowMs; returns the `expire` events in index order. */
  deleteExpired(nowMs: number): V2Event[] {
    return deleteExpired(this.#s, nowMs);
  }

  /** Earliest pending expiry (ms), for scheduling the next expiry pass; undefined when none. */
  nextExpiration(): number | undefined {
    return this.#s.ttl.top()?.expireAt;
  }

  watch(path: string, opts: V2WatchOptions, onEvent: (e: V2Event) => void): V2Result<V2Watch> {
    return watch(this.#s, path, opts, onEvent);
  }

  /** Applies one replicated request (dispatch rules in types.ts / apply.ts). */
  apply(req: V2Request, nowMs: number): V2Result<V2Event> {
    return applyRequest(this, req, nowMs);
  }

  /** Registered watchers (for a gauge). */
  watcherCount(): number {
    return this.#s.hub.count;
  }

  /** Approximate size of the data in bytes: keys and values (UTF-8) plus a fixed cost per node. */
  sizeBytes(): number {
    let total = 0;
    const visit = (n: TreeNode): void => {
      total += utf8Length(n.path) + utf8Length(n.value) + NODE_OVERHEAD_BYTES;
      for (const c of n.children?.values() ?? []) visit(c);
    };
    visit(this.#s.root);
    return total;
  }

  toJSON(): V2SnapshotJSON {
    return encodeSnapshot(this.#s.root, this.#s.index, this.#s.history);
  }

  /** A store rebuilt from `toJSON()` output. Throws on malformed input. */
  static fromJSON(json: unknown, options: V2StoreOptions = {}): V2Store {
    const store = new V2Store(options);
    store.restore(json);
    return store;
  }

  /**
   * Replaces the data, index and history with a snapshot's (snapshot install). Registered
   * watchers stay registered and see the writes applied after it. Throws on malformed
   * input, leaving the store unchanged.
   */
  restore(json: unknown): void {
    const decoded = decodeSnapshot(json);
    this.#s.ttl.clear();
    this.#s.root = decoded.root;
    this.#s.index = decoded.index;
    this.#s.history.replace(decoded.history);
    for (const n of decoded.expiring) this.#s.ttl.push(n);
    for (const ns of this.#namespaces) {
      const name = ns.slice(1);
      if (!this.#s.root.children?.has(name)) this.#s.root.children?.set(name, newDir(ns, 0n, this.#s.root, undefined));
    }
  }
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
