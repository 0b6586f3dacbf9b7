/**
 * The in-memory key index: every key with history, in key order, each with its KeyIndex
 * (generations, and the create revision / version / lease of its live record). Values are
 * not here: they are read from the backend (README.md draws what lives where).
 *
 * Keys are held as latin1 strings (one char per byte): they sort in unsigned byte order and
 * take a fraction of a Buffer's memory. `keyName` turns a Buffer into that form.
 *
 * Invariants: `liveCount` equals the number of live keys; a key leaves the tree only through
 * compaction, once no generation is left. Pure module.
 */
import { newStringMap } from '../storage/sorted-map.js';
import { KeyIndex } from './key-index.js';
import type { KeyBounds } from './key-range.js';
import { RevisionSet } from './revision-set.js';

/** The index's form of a user key. */
export function keyName(key: Buffer): string {
  return key.toString('latin1');
}

/** The user key of an index entry, as bytes. */
export function keyBytes(ki: KeyIndex): Buffer {
  return Buffer.from(ki.key, 'latin1');
}

export class TreeIndex {
  private readonly tree = newStringMap<KeyIndex>();
  /** Number of live keys. */
  liveCount = 0;

  /** Keys with history (live or not). */
  get size(): number {
    return this.tree.size;
  }

  get(key: Buffer): KeyIndex | undefined {
    return this.tree.get(keyName(key));
  }

  getByName(name: string): KeyIndex | undefined {
    return this.tree.get(name);
  }

  private entry(name: string): KeyIndex {
    let ki = this.tree.get(name);
    if (ki === undefined) {
      ki = new KeyIndex(name);
      this.tree.set(name, ki);
    }
    return ki;
  }

  /**
   * Records a put at (main, sub) of a record with the given create revision, version and
   * lease; `known` is the key's entry if the caller already has it.
   */
  put(name: string, main: number, sub: number, created: number, version: number, lease: bigint, known?: KeyIndex): void {
    const ki = known ?? this.entry(name);
    if (!ki.isLive) this.liveCount++;
    ki.put(main, sub, created, version, lease);
  }

  /** Adds an entry read back from an index checkpoint (keys in ascending order, none known yet). */
  restore(ki: KeyIndex): void {
    const last = this.tree.maxKey();
    if (last !== undefined && last >= ki.key) throw new Error('mvcc: index checkpoint keys out of order');
    this.tree.set(ki.key, ki);
    if (ki.isLive) this.liveCount++;
  }

  /** Records the deletion of live key `name` at (main, sub). */
  tombstone(name: string, main: number, sub: number): void {
    const ki = this.tree.get(name);
    if (ki === undefined) throw new Error('mvcc: tombstone of an unknown key');
    ki.tombstone(main, sub);
    this.liveCount--;
  }

  /** Recovery: a tombstone read back from the backend; ignored if the key is not live. */
  restoreTombstone(name: string, main: number, sub: number): void {
    const ki = this.tree.get(name);
    if (ki !== undefined && ki.restoreTombstone(main, sub)) this.liveCount--;
  }

  /** Calls `fn` for every key with history inside `bounds`, in key order; `fn` returning true stops. */
  forEachInRange(bounds: KeyBounds, fn: (ki: KeyIndex) => boolean | void): void {
    switch (bounds.kind) {
      case 'none':
        return;
      case 'single': {
        const ki = this.tree.get(keyName(bounds.key));
        if (ki !== undefined) fn(ki);
        return;
      }
      case 'interval': {
        const cb = (_k: string, ki: KeyIndex): { break: true } | undefined => (fn(ki) === true ? { break: true } : undefined);
        const low = keyName(bounds.low);
        if (bounds.high !== undefined) {
          this.tree.forRange(low, keyName(bounds.high), false, cb);
          return;
        }
        const max = this.tree.maxKey();
        if (max !== undefined && max >= low) this.tree.forRange(low, max, true, cb);
        return;
      }
    }
  }

  /** Every entry in key order. */
  forEach(fn: (ki: KeyIndex) => void): void {
    this.tree.forEach((ki) => {
      fn(ki);
    });
  }

  /**
   * Compacts every key at `main` (see KeyIndex.compact) and removes emptied keys.
   * Returns the revisions ≤ main that remain: the records to keep.
   */
  compact(main: bigint): RevisionSet {
    const keep = new RevisionSet();
    this.compactEach(main, (m, sub) => keep.add(m, sub));
    return keep;
  }

  /** `compact` without collecting the kept revisions (recovery: the backend holds only those). */
  compactEach(main: bigint, onKeep: (m: number, sub: number) => void = () => undefined): void {
    const emptied: string[] = [];
    this.tree.forEach((ki, key) => {
      if (ki.compact(main, onKeep)) emptied.push(key);
    });
    for (const key of emptied) this.tree.delete(key);
  }

  /** Calls `fn` with every live key that has a lease, in key order. */
  forEachLeased(fn: (key: Buffer, lease: bigint) => void): void {
    this.tree.forEach((ki) => {
      if (ki.lease !== 0n && ki.isLive) fn(keyBytes(ki), ki.lease);
    });
  }

  /** Every indexed revision with main ≤ `main` (after compaction at main: the kept ones). */
  revisionsAtOrBelow(main: bigint): RevisionSet {
    const revs = new RevisionSet();
    this.tree.forEach((ki) => {
      ki.forEachAtOrBelow(main, (m, sub) => revs.add(m, sub));
    });
    return revs;
  }
}
