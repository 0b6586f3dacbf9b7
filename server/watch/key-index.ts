/**
 * Finds the watchers interested in a key without scanning every watcher:
 * single-key watchers sit in a hash map keyed by the key, range watchers in an interval index.
 * A lookup costs one map probe plus O(log r + k) for r range watchers and k matches.
 *
 * Entries are identified by a caller-owned numeric id that is unique among live entries.
 */
import type { KeyRange } from './key-range.js';
import { IntervalIndex } from './interval-index.js';

export interface Indexed {
  readonly seq: number;
  readonly range: KeyRange;
}

export class KeyIndex<T extends Indexed> {
  private readonly single = new Map<string, Set<T>>();
  private readonly ranges = new IntervalIndex<T>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(item: T): void {
    const { start, end } = item.range;
    if (end === undefined) {
      let set = this.single.get(start);
      if (!set) this.single.set(start, (set = new Set()));
      set.add(item);
    } else {
      this.ranges.add(start, end, item.seq, item);
    }
    this.count++;
  }

  /** Returns whether the item was present. */
  delete(item: T): boolean {
    const { start, end } = item.range;
    let hit: boolean;
    if (end === undefined) {
      const set = this.single.get(start);
      hit = set?.delete(item) ?? false;
      if (set && set.size === 0) this.single.delete(start);
    } else {
      hit = this.ranges.delete(start, item.seq);
    }
    if (hit) this.count--;
    return hit;
  }

  /** Calls `out` once for every item. */
  forEach(out: (item: T) => void): void {
    for (const set of this.single.values()) for (const item of set) out(item);
    this.ranges.forEach(out);
  }

  /** Calls `out` once for every item whose range contains `key` (latin1). */
  match(key: string, out: (item: T) => void): void {
    const set = this.single.get(key);
    if (set) for (const item of set) out(item);
    this.ranges.stab(key, out);
  }
}
