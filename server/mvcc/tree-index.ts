/**
 * The in-memory key index: every key with history, in key order, each with its KeyIndex
 * (generations + latest live record). Current-revision reads and write transactions are
 * served from here without disk access.
 *
 * Invariants: `liveCount` equals the number of keys whose `live` is set; a key leaves the
 * tree only through compaction, once no generation is left. Pure module.
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';
import { newBufferMap } from '../storage/sorted-map.js';
import { KeyIndex } from './key-index.js';
import type { KeyBounds } from './key-range.js';
import { revisionId, type Revision } from './revision.js';

export class TreeIndex {
  private readonly tree = newBufferMap<KeyIndex>();
  /** Number of live keys. */
  liveCount = 0;

  /** Keys with history (live or not). */
  get size(): number {
    return this.tree.size;
  }

  get(key: Buffer): KeyIndex | undefined {
    return this.tree.get(key);
  }

  /** The latest live record of `key`. */
  live(key: Buffer): KeyValue | undefined {
    return this.tree.get(key)?.live;
  }

  private entry(key: Buffer): KeyIndex {
    let ki = this.tree.get(key);
    if (ki === undefined) {
      ki = new KeyIndex(key);
      this.tree.set(key, ki);
    }
    return ki;
  }

  /** Records a put of `kv` at `rev`; `known` is the key's entry if the caller already has it. */
  put(kv: KeyValue, rev: Revision, known?: KeyIndex): void {
    const ki = known ?? this.entry(kv.key);
    if (ki.live === undefined) this.liveCount++;
    ki.put(rev, kv);
  }

  /** Records the deletion of live key `key` at `rev`. */
  tombstone(key: Buffer, rev: Revision): void {
    const ki = this.tree.get(key);
    if (ki === undefined) throw new Error('mvcc: tombstone of an unknown key');
    ki.tombstone(rev);
    this.liveCount--;
  }

  /** Recovery: a tombstone read back from the backend; ignored if the key is not live. */
  restoreTombstone(key: Buffer, rev: Revision): void {
    const ki = this.tree.get(key);
    if (ki !== undefined && ki.restoreTombstone(rev)) this.liveCount--;
  }

  /** Calls `fn` for every key with history inside `bounds`, in key order. */
  forEachInRange(bounds: KeyBounds, fn: (ki: KeyIndex) => void): void {
    switch (bounds.kind) {
      case 'none':
        return;
      case 'single': {
        const ki = this.tree.get(bounds.key);
        if (ki !== undefined) fn(ki);
        return;
      }
      case 'interval': {
        const cb = (_k: Buffer, ki: KeyIndex): void => fn(ki);
        if (bounds.high !== undefined) {
          this.tree.forRange(bounds.low, bounds.high, false, cb);
          return;
        }
        const max = this.tree.maxKey();
        if (max !== undefined && Buffer.compare(max, bounds.low) >= 0) this.tree.forRange(bounds.low, max, true, cb);
        return;
      }
    }
  }

  /**
   * Compacts every key at `main` (see KeyIndex.compact) and removes emptied keys.
   * Returns the ids (revisionId) of the revisions ≤ main that remain: the records to keep.
   */
  compact(main: bigint): Set<bigint> {
    const keep = new Set<bigint>();
    const onKeep = (rev: Revision): void => {
      keep.add(revisionId(rev.main, rev.sub));
    };
    const emptied: Buffer[] = [];
    this.tree.forEach((ki, key) => {
      if (ki.compact(main, onKeep)) emptied.push(key);
    });
    for (const key of emptied) this.tree.delete(key);
    return keep;
  }

  /** Ids of every indexed revision with main ≤ `main` (after compaction at main: the kept ones). */
  revisionsAtOrBelow(main: bigint): Set<bigint> {
    const ids = new Set<bigint>();
    this.tree.forEach((ki) => {
      ki.forEachAtOrBelow(main, (rev) => {
        ids.add(revisionId(rev.main, rev.sub));
      });
    });
    return ids;
  }
}
