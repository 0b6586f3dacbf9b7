/**
 * One member's Raft log as a WAL holds it: an optional snapshot base (the log starts after
 * index `base`), the entries after it, the latest hard state, and a hash chain over the
 * entries — the chain value at index i commits to every entry up to i (term, type, data),
 * so two logs agree on a whole prefix iff their chain values at its last index agree.
 *
 * Chain values are kept for every index this log ever held, also below the base after a
 * snapshot released the entries (the checks compare prefixes there). A snapshot installed
 * past the end of the log has the chain value of the prefix it holds, and none below it.
 */
import { createHash } from 'node:crypto';
import type { Entry, HardState } from '../../../server/wal/types.js';

export function chainHash(prev: string, e: Entry): string {
  const h = createHash('sha1');
  h.update(prev);
  h.update(`|${e.term}|${e.type}|`);
  h.update(e.data);
  return h.digest('base64');
}

export function copyEntry(e: Entry): Entry {
  return { term: e.term, index: e.index, type: e.type, data: Buffer.from(e.data) };
}

export interface Placed {
  readonly entry: Entry;
  readonly chain: string;
  /** The chain value the entry replaced at its index (undefined past the old end). */
  readonly replaced: string | undefined;
}

export class LogImage {
  /** Index of the snapshot the log starts after (0: none). */
  base = 0;
  /** entries[i] has index base + 1 + i. */
  entries: Entry[] = [];
  /** chain[i] is the chain value at index i + 1 (undefined: unknown). */
  chain: Array<string | undefined> = [];
  hardState: HardState = { term: 0, vote: 0n, commit: 0 };

  get lastIndex(): number {
    return this.base + (this.entries.length);
  }

  /** The chain value at `index`; undefined past the end or where unknown. */
  chainAt(index: number): string | undefined {
    if (index === 0) return '';
    if (index > this.lastIndex) return undefined;
    return this.chain[Number(index) - 1];
  }

  /** Why appending `entries` would break the WAL's rules (gap, not consecutive, before the base), or undefined. */
  appendProblem(entries: readonly Entry[]): string | undefined {
    if (entries.length === 0) return undefined;
    const first = entries[0]!.index;
    if (first <= this.base) return `entry ${first} is at or before the snapshot at ${this.base}`;
    if (first > this.lastIndex + 1) return `entry ${first} leaves a gap after ${this.lastIndex}`;
    for (let i = 1; i < entries.length; i++) {
      if (entries[i]!.index !== first + (i)) return `entries not consecutive at ${entries[i]!.index}`;
    }
    return undefined;
  }

  /** Appends (replacing the tail from the first index); returns what was placed. */
  append(entries: readonly Entry[]): Placed[] {
    if (entries.length === 0) return [];
    const first = entries[0]!.index;
    const at = Number(first - this.base) - 1;
    const replaced = this.chain.slice(Number(first) - 1, Number(first) - 1 + entries.length);
    this.entries.length = at;
    this.chain.length = Number(first) - 1;
    let prev = this.chainAt(first - 1);
    if (prev === undefined) throw new Error(`log image: no chain value at ${first - 1}`);
    return entries.map((e, i) => {
      prev = chainHash(prev!, e);
      this.entries.push(e);
      this.chain.push(prev);
      return { entry: e, chain: prev, replaced: replaced[i] };
    });
  }

  /**
   * Records a snapshot marker at `index` whose applied prefix has chain value `chain`: the
   * log now starts after it. As when a WAL is replayed, entries after the marker that were
   * written before it stay (a later append at a lower index replaces them).
   */
  snapshot(index: number, chain: string): void {
    if (index <= this.base) return;
    if (index >= this.lastIndex) {
      this.entries = [];
      this.chain.length = Number(index);
    } else {
      this.entries = this.entries.slice(Number(index - this.base));
    }
    this.chain[Number(index) - 1] = chain;
    this.base = index;
  }

  clone(): LogImage {
    const c = new LogImage();
    c.base = this.base;
    c.entries = [...this.entries];
    c.chain = [...this.chain];
    c.hardState = { ...this.hardState };
    return c;
  }
}
