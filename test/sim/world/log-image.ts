/**
 * One member's Raft log as a WAL holds it: entries from index 1 (the simulation takes no
 * snapshots), the latest hard state, and a hash chain over the entries — chain[i] commits
 * to every entry up to index i+1 (term, type, data), so two logs agree on a whole prefix iff
 * their chain values at its last index agree.
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
  readonly replaced: string | undefined;
}

export class LogImage {
  entries: Entry[] = [];
  chain: string[] = [];
  hardState: HardState = { term: 0n, vote: 0n, commit: 0n };

  get lastIndex(): bigint {
    return BigInt(this.entries.length);
  }

  /** The chain value at `index` (1-based); undefined past the end; '' for index 0. */
  chainAt(index: bigint): string | undefined {
    if (index === 0n) return '';
    return this.chain[Number(index) - 1];
  }

  /** Why appending `entries` would break the WAL's rules (gap, not consecutive), or undefined. */
  appendProblem(entries: readonly Entry[]): string | undefined {
    if (entries.length === 0) return undefined;
    const first = entries[0]!.index;
    if (first < 1n || first > this.lastIndex + 1n) return `entry ${first} leaves a gap after ${this.lastIndex}`;
    for (let i = 1; i < entries.length; i++) {
      if (entries[i]!.index !== first + BigInt(i)) return `entries not consecutive at ${entries[i]!.index}`;
    }
    return undefined;
  }

  /**
   * Appends (replacing the tail from the first index); returns the entries placed with
   * their chain values and the chain value each replaced (undefined past the old end).
   */
  append(entries: readonly Entry[]): Placed[] {
    if (entries.length === 0) return [];
    const first = Number(entries[0]!.index);
    const replaced = this.chain.slice(first - 1, first - 1 + entries.length);
    this.entries.length = first - 1;
    this.chain.length = first - 1;
    const placed: Placed[] = [];
    entries.forEach((e, i) => {
      const chain = chainHash(this.chain[this.chain.length - 1] ?? '', e);
      this.entries.push(e);
      this.chain.push(chain);
      placed.push({ entry: e, chain, replaced: replaced[i] });
    });
    return placed;
  }

  clone(): LogImage {
    const c = new LogImage();
    c.entries = [...this.entries];
    c.chain = [...this.chain];
    c.hardState = { ...this.hardState };
    return c;
  }
}
