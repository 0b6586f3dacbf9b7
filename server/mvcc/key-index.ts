/**
 * The history of one key: its revisions grouped in generations, plus what a write needs to
 * know about its live record (create revision, version, lease). The record itself, value
 * included, stays in the backend (or the unflushed map until it is flushed).
 *
 * A generation is the life of the key from a creation to a deletion: an ordered list of
 * revisions whose last element, for every generation but the newest, is the tombstone that
 * ended it. The newest generation is open; it is empty while the key is deleted.
 *
 * Worked example — put a@2, put a@3, delete a@4, put a@6, put a@7 (sub 0 everywhere):
 *   generations = [ [2,3,4t], [6,7] ]      live: created 6, version 2
 *   at(3) = 3    at(4) = none (deleted)    at(5) = none    at(6) = 6    at(1) = none
 *   previous(3) = 2, previous(6) = none (6 starts a generation), previous(4t) = 3
 * compact(4): the first generation ended at 4 ≤ 4 → dropped whole;    → [ [6,7] ], keep nothing
 * compact(6) instead: keep 6, the newest revision ≤ 6 (not a tombstone) → [ [6,7] ], keep 6
 * compact(3) instead: keep 3, drop 2                                   → [ [3,4t], [6,7] ], keep 3
 * A key whose only generation is empty after compaction is removed from the index.
 *
 * Memory layout (one small object and one number array per key): `revs` holds every
 * revision of every generation as flat (main, sub) number pairs, oldest first; `ends` holds,
 * for each closed generation, the pair count at which it ends (a shared empty array while the
 * key has a single generation). In the example revs = [2,0, 3,0, 4,0, 6,0, 7,0], ends = [3].
 * Main revisions are numbers (exact up to 2^53); the Revision objects handed out are built on
 * demand. Pure module.
 */
import type { Revision } from './revision.js';

const NO_ENDS: readonly number[] = Object.freeze([]);

export class KeyIndex {
  /** (main, sub) pairs of every revision, oldest first. */
  revs: number[] = [];
  /** Pair count at the end of each closed generation (after its tombstone), ascending. */
  ends: readonly number[] = NO_ENDS;
  /** Create revision of the live record (0 while the key is deleted). */
  created = 0;
  /** Version of the live record (0 while the key is deleted). */
  version = 0;
  /** Lease of the live record (0n: none). */
  lease = 0n;

  /** `key`: the user key as a latin1 string (one char per byte; see tree-index.ts). */
  constructor(readonly key: string) {}

  /** An entry with this exact state (read back from an index checkpoint: index-checkpoint.ts). */
  static restored(key: string, revs: number[], ends: readonly number[], created: number, version: number, lease: bigint): KeyIndex {
    const ki = new KeyIndex(key);
    ki.revs = revs;
    ki.ends = ends.length === 0 ? NO_ENDS : ends;
    ki.created = created;
    ki.version = version;
    ki.lease = lease;
    return ki;
  }

  /** Number of revisions held. */
  get size(): number {
    return this.revs.length >> 1;
  }

  /** Pair index where the open generation starts. */
  private openStart(): number {
    const e = this.ends;
    return e.length === 0 ? 0 : e[e.length - 1];
  }

  /** True while the key has a live record. */
  get isLive(): boolean {
    return this.size > this.openStart();
  }

  mainAt(pos: number): number {
    return this.revs[pos << 1];
  }

  subAt(pos: number): number {
    return this.revs[(pos << 1) + 1];
  }

  revisionAt(pos: number): Revision {
    return { main: BigInt(this.revs[pos << 1]), sub: this.revs[(pos << 1) + 1] };
  }

  /** Records a put at (main, sub), newer than every known revision, of a record with these fields. */
  put(main: number, sub: number, created: number, version: number, lease: bigint): void {
    if (this.revs.length === 0) this.revs = [main, sub];
    else this.revs.push(main, sub);
    this.created = created;
    this.version = version;
    this.lease = lease;
  }

  /** Records a deletion at (main, sub); the key must be live (a broken invariant throws). */
  tombstone(main: number, sub: number): void {
    if (!this.isLive) throw new Error('mvcc: tombstone of a key that is not live');
    this.revs.push(main, sub);
    this.ends = this.ends.length === 0 ? [this.size] : [...this.ends, this.size];
    this.created = 0;
    this.version = 0;
    this.lease = 0n;
  }

  /**
   * Recovery variant of `tombstone`: a tombstone for a key that is not live is a leftover
   * of an interrupted compaction and is ignored (returns false).
   */
  restoreTombstone(main: number, sub: number): boolean {
    if (!this.isLive) return false;
    this.tombstone(main, sub);
    return true;
  }

  /** [start, end) pair positions of generation `gi`. */
  private gen(gi: number): [number, number] {
    const e = this.ends;
    return [gi === 0 ? 0 : e[gi - 1], gi < e.length ? e[gi] : this.size];
  }

  /** Position in [s, e) of the newest revision with main ≤ `m`, or -1. */
  private lastAtOrBelow(s: number, e: number, m: number): number {
    let lo = s;
    let hi = e - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.revs[mid << 1] <= m) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** Position in [s, e) of revision (m, sub), or -1. */
  private indexOf(s: number, e: number, m: number, sub: number): number {
    let lo = s;
    let hi = e - 1;
    const r = this.revs;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = r[mid << 1] - m || r[(mid << 1) + 1] - sub;
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Position of the newest revision ≤ main `m` if the key existed at `m`, else -1. */
  posAt(m: number): number {
    const last = this.ends.length;
    for (let gi = last; gi >= 0; gi--) {
      const [s, e] = this.gen(gi);
      if (s === e) continue;
      if (gi < last && this.revs[(e - 1) << 1] <= m) return -1;
      if (this.revs[s << 1] <= m) return this.lastAtOrBelow(s, e, m);
    }
    return -1;
  }

  /** The newest revision ≤ `main` if the key existed at `main`, else undefined. */
  at(main: bigint): Revision | undefined {
    const pos = this.posAt(Number(main));
    return pos < 0 ? undefined : this.revisionAt(pos);
  }

  /** Position of `rev` and the start of its generation, or undefined. */
  private locate(rev: Revision): { pos: number; start: number } | undefined {
    const m = Number(rev.main);
    for (let gi = 0; gi <= this.ends.length; gi++) {
      const [s, e] = this.gen(gi);
      if (s === e) continue;
      const lm = this.revs[(e - 1) << 1];
      if (lm < m || (lm === m && this.revs[((e - 1) << 1) + 1] < rev.sub)) continue;
      const pos = this.indexOf(s, e, m, rev.sub);
      return pos < 0 ? undefined : { pos, start: s };
    }
    return undefined;
  }

  /** The revision before `rev` in its generation (undefined at a generation start or if unknown). */
  previous(rev: Revision): Revision | undefined {
    const at = this.locate(rev);
    return at !== undefined && at.pos > at.start ? this.revisionAt(at.pos - 1) : undefined;
  }

  /** True if the index still holds `rev` (false once compaction removed it). */
  has(rev: Revision): boolean {
    return this.locate(rev) !== undefined;
  }

  /** The newest revision of the key (live or tombstone), if any. */
  latest(): Revision | undefined {
    const n = this.size;
    return n === 0 ? undefined : this.revisionAt(n - 1);
  }

  /** The generations as lists of revisions (tests and diagnostics). */
  generations(): Revision[][] {
    const out: Revision[][] = [];
    for (let gi = 0; gi <= this.ends.length; gi++) {
      const [s, e] = this.gen(gi);
      const g: Revision[] = [];
      for (let i = s; i < e; i++) g.push(this.revisionAt(i));
      out.push(g);
    }
    return out;
  }

  /**
   * Removes the history that no read at a revision ≥ `main` can see. Calls `keep` with the
   * revision kept to serve reads at `main` (the newest ≤ main, if it is not a tombstone).
   * Returns true when nothing is left and the key should leave the index.
   */
  compact(main: bigint, keep: (m: number, sub: number) => void): boolean {
    const m = Number(main);
    const last = this.ends.length;
    let gi = 0;
    while (gi < last && this.revs[(this.ends[gi] - 1) << 1] <= m) gi++;
    const [s, e] = this.gen(gi);
    const idx = this.lastAtOrBelow(s, e, m);
    const cut = idx >= 0 ? idx : s;
    if (idx >= 0) keep(this.mainAt(idx), this.subAt(idx));
    if (cut > 0) {
      this.revs = this.revs.slice(cut << 1);
      const rest = this.ends.slice(gi).map((x) => x - cut);
      this.ends = rest.length === 0 ? NO_ENDS : rest;
    }
    return this.revs.length === 0;
  }

  /**
   * Calls `fn` for each revision with main in [from, to], oldest first, telling whether it is
   * a tombstone and which revision precedes it in its generation.
   */
  forEachBetween(from: bigint, to: bigint, fn: (rev: Revision, tombstone: boolean, prev: Revision | undefined) => void): void {
    const f = Number(from);
    const t = Number(to);
    const last = this.ends.length;
    for (let gi = 0; gi <= last; gi++) {
      const [s, e] = this.gen(gi);
      if (s === e || this.revs[(e - 1) << 1] < f) continue;
      const below = this.lastAtOrBelow(s, e, f - 1);
      for (let i = below < 0 ? s : below + 1; i < e; i++) {
        if (this.mainAt(i) > t) return;
        fn(this.revisionAt(i), gi < last && i === e - 1, i > s ? this.revisionAt(i - 1) : undefined);
      }
    }
  }

  /** Calls `fn` for each revision with main ≤ `main`, oldest first. */
  forEachAtOrBelow(main: bigint, fn: (m: number, sub: number) => void): void {
    const m = Number(main);
    const r = this.revs;
    for (let i = 0; i < r.length; i += 2) {
      if (r[i] > m) return;
      fn(r[i], r[i + 1]);
    }
  }
}
