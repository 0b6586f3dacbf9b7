/**
 * Watchers waiting for future events (etcd's watcherHub), grouped by the watched path.
 *
 * Delivery rules (same as etcd):
 * - `notify(e)` offers the event to the watchers of every ancestor of its key, from `/`
 *   down to the key itself; a watcher takes it when it watches the key itself, or is
 *   recursive and the key is not hidden below the watched path (no `/_` segment after it);
 * - while a delete/expire removes nodes, `notifyRemoved(e, path)` offers the event to the
 *   watchers of each removed path, recursive or not (so a stream watcher on the deleted
 *   key itself sees the event twice, as in etcd);
 * - only events with index ≥ the watcher's sinceIndex are taken;
 * - a one-shot watcher is removed after its first event; a stream watcher stays.
 * Callbacks run synchronously inside the store write: they must not call into the store.
 */
import type { V2Event } from './types.js';

interface Watcher {
  readonly recursive: boolean;
  readonly stream: boolean;
  readonly sinceIndex: bigint;
  readonly onEvent: (e: V2Event) => void;
  removed: boolean;
}

export class WatcherHub {
  readonly #byPath = new Map<string, Watcher[]>();
  #count = 0;

  get count(): number {
    return this.#count;
  }

  /** Registers a watcher; returns its cancel function (idempotent). */
  add(path: string, recursive: boolean, stream: boolean, sinceIndex: bigint, onEvent: (e: V2Event) => void): () => void {
    const w: Watcher = { recursive, stream, sinceIndex, onEvent, removed: false };
    const list = this.#byPath.get(path);
    if (list) list.push(w);
    else this.#byPath.set(path, [w]);
    this.#count++;
    return () => this.#remove(path, w);
  }

  notify(e: V2Event): void {
    let current = '';
    this.#offer(e, '/', false);
    for (const seg of e.node.key.split('/')) {
      if (seg === '') continue;
      current = `${current}/${seg}`;
      this.#offer(e, current, false);
    }
  }

  notifyRemoved(e: V2Event, path: string): void {
    this.#offer(e, path, true);
  }

  #offer(e: V2Event, path: string, deleted: boolean): void {
    const list = this.#byPath.get(path);
    if (!list) return;
    const original = e.node.key === path;
    for (const w of [...list]) {
      if (w.removed) continue;
      if (!original && isHiddenBelow(path, e.node.key)) continue;
      if (!(w.recursive || original || deleted) || e.node.modifiedIndex < w.sinceIndex) continue;
      if (!w.stream) this.#remove(path, w);
      w.onEvent(e);
    }
  }

  #remove(path: string, w: Watcher): void {
    if (w.removed) return;
    w.removed = true;
    this.#count--;
    const list = this.#byPath.get(path);
    if (!list) return;
    const i = list.indexOf(w);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.#byPath.delete(path);
  }
}

/** True when `key` is hidden as seen from the watched path (a `_name` segment after it). */
export function isHiddenBelow(watchPath: string, key: string): boolean {
  if (watchPath.length > key.length) return false;
  const after = `/${key.slice(watchPath.length)}`;
  return /\/+_/.test(after);
}
