/**
 * The history of one key: its revisions grouped in generations, plus its latest live record.
 *
 * A generation is the life of the key from a creation to a deletion: an ordered list of
 * revisions whose last element, for every generation but the newest, is the tombstone that
 * ended it. The newest generation is open; it is empty while the key is deleted.
 *
 * Worked example — put a@2, put a@3, delete a@4, put a@6, put a@7 (sub 0 everywhere):
 *   generations = [ [2,3,4t], [6,7] ]      live = the record written at 7
 *   at(3) = 3    at(4) = none (deleted)    at(5) = none    at(6) = 6    at(1) = none
 *   previous(3) = 2, previous(6) = none (6 starts a generation), previous(4t) = 3
 * compact(4): the first generation ended at 4 ≤ 4 → dropped whole;    → [ [6,7] ], keep nothing
 * compact(6) instead: keep 6, the newest revision ≤ 6 (not a tombstone) → [ [6,7] ], keep 6
 * compact(3) instead: keep 3, drop 2                                   → [ [3,4t], [6,7] ], keep 3
 * A key whose only generation is empty after compaction is removed from the index.
 *
 * Pure module; revisions are never mutated once appended.
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';
import { compareRevisions, type Revision } from './revision.js';

/** Index in `g` of the newest revision with main ≤ `main`, or -1. */
function lastAtOrBelow(g: readonly Revision[], main: bigint): number {
  let lo = 0;
  let hi = g.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (g[mid].main <= main) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Index of `rev` in `g`, or -1. */
function indexOf(g: readonly Revision[], rev: Revision): number {
  let lo = 0;
  let hi = g.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareRevisions(g[mid], rev);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

export class KeyIndex {
  /** Oldest first; never empty; only the last may be empty. */
  generations: Revision[][] = [[]];
  /** The latest live record of the key; undefined while it is deleted. Shared: never mutate. */
  live: KeyValue | undefined = undefined;

  constructor(readonly key: Buffer) {}

  /** Records a put at `rev` (newer than every known revision) whose record is `kv`. */
  put(rev: Revision, kv: KeyValue): void {
    this.generations[this.generations.length - 1].push(rev);
    this.live = kv;
  }

  /** Records a deletion at `rev`; the key must be live (a broken invariant throws). */
  tombstone(rev: Revision): void {
    const open = this.generations[this.generations.length - 1];
    if (open.length === 0) throw new Error('mvcc: tombstone of a key that is not live');
    open.push(rev);
    this.generations.push([]);
    this.live = undefined;
  }

  /**
   * Recovery variant of `tombstone`: a tombstone for a key that is not live is a leftover
   * of an interrupted compaction and is ignored (returns false).
   */
  restoreTombstone(rev: Revision): boolean {
    if (this.generations[this.generations.length - 1].length === 0) return false;
    this.tombstone(rev);
    return true;
  }

  /** The newest revision ≤ `main` if the key existed at `main`, else undefined. */
  at(main: bigint): Revision | undefined {
    const gens = this.generations;
    const last = gens.length - 1;
    for (let i = last; i >= 0; i--) {
      const g = gens[i];
      if (g.length === 0) continue;
      if (i < last && g[g.length - 1].main <= main) return undefined;
      if (g[0].main <= main) return g[lastAtOrBelow(g, main)];
    }
    return undefined;
  }

  /** The revision before `rev` in its generation (undefined at a generation start or if unknown). */
  previous(rev: Revision): Revision | undefined {
    for (const g of this.generations) {
      if (g.length === 0 || compareRevisions(g[g.length - 1], rev) < 0) continue;
      const i = indexOf(g, rev);
      return i > 0 ? g[i - 1] : undefined;
    }
    return undefined;
  }

  /** True if the index still holds `rev` (false once compaction removed it). */
  has(rev: Revision): boolean {
    for (const g of this.generations) {
      if (g.length > 0 && compareRevisions(g[g.length - 1], rev) >= 0) return indexOf(g, rev) >= 0;
    }
    return false;
  }

  /** The newest revision of the key (live or tombstone), if any. */
  latest(): Revision | undefined {
    const gens = this.generations;
    const open = gens[gens.length - 1];
    if (open.length > 0) return open[open.length - 1];
    const closed = gens.length > 1 ? gens[gens.length - 2] : undefined;
    return closed === undefined ? undefined : closed[closed.length - 1];
  }

  /**
   * Removes the history that no read at a revision ≥ `main` can see. Calls `keep` with the
   * revision kept to serve reads at `main` (the newest ≤ main, if it is not a tombstone).
   * Returns true when nothing is left and the key should leave the index.
   */
  compact(main: bigint, keep: (rev: Revision) => void): boolean {
    const gens = this.generations;
    let gi = 0;
    while (gi < gens.length - 1 && gens[gi][gens[gi].length - 1].main <= main) gi++;
    const g = gens[gi];
    const idx = lastAtOrBelow(g, main);
    if (idx > 0) gens[gi] = g.slice(idx);
    if (idx >= 0) keep(gens[gi][0]);
    if (gi > 0) this.generations = gens.slice(gi);
    return this.generations.length === 1 && this.generations[0].length === 0;
  }

  /**
   * Calls `fn` for each revision with main in [from, to], oldest first, telling whether it is
   * a tombstone and which revision precedes it in its generation.
   */
  forEachBetween(from: bigint, to: bigint, fn: (rev: Revision, tombstone: boolean, prev: Revision | undefined) => void): void {
    const gens = this.generations;
    for (let gi = 0; gi < gens.length; gi++) {
      const g = gens[gi];
      if (g.length === 0 || g[g.length - 1].main < from) continue;
      const closed = gi < gens.length - 1;
      for (let i = lastAtOrBelow(g, from - 1n) + 1; i < g.length; i++) {
        const rev = g[i];
        if (rev.main > to) return;
        fn(rev, closed && i === g.length - 1, i > 0 ? g[i - 1] : undefined);
      }
    }
  }

  /** Calls `fn` for each revision with main ≤ `main`, oldest first. */
  forEachAtOrBelow(main: bigint, fn: (rev: Revision) => void): void {
    for (const g of this.generations) {
      for (const rev of g) {
        if (rev.main > main) return;
        fn(rev);
      }
    }
  }
}
