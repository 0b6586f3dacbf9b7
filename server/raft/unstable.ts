/**
 * The unstable part of the log: entries (and possibly a snapshot) the core has accepted but the
 * application has not yet persisted. They are handed out in a Ready and dropped from here by
 * `stableTo` / `stableSnapTo` when that Ready is advanced.
 *
 * Invariants: `entries[k].index === offset + k`; with a snapshot, `offset === snapshot index + 1`
 * at the time it was restored. Entries below `offset` live in storage.
 */
import type { Entry } from './log-types.js';
import type { Snapshot } from './snapshot.js';

export class Unstable {
  snapshot: Snapshot | undefined = undefined;
  entries: Entry[] = [];
  /** Index of entries[0] (or where the next entry would go). */
  offset: number;

  constructor(offset: number) {
    this.offset = offset;
  }

  /** First index of the log when an unstable snapshot defines it. */
  maybeFirstIndex(): number | undefined {
    return this.snapshot === undefined ? undefined : this.snapshot.metadata.index + 1;
  }

  /** Last index of the log when the unstable part defines it. */
  maybeLastIndex(): number | undefined {
    if (this.entries.length > 0) return this.offset + (this.entries.length - 1);
    return this.snapshot?.metadata.index;
  }

  /** Term of entry i when the unstable part knows it. */
  maybeTerm(i: number): number | undefined {
    if (i < this.offset) {
      return this.snapshot !== undefined && this.snapshot.metadata.index === i ? this.snapshot.metadata.term : undefined;
    }
    const e = this.entries[Number(i - this.offset)];
    return e?.term;
  }

  /** Entries up to (i, t) are persisted. Ignored when entry i was replaced (term differs) meanwhile. */
  stableTo(i: number, t: number): void {
    if (i < this.offset) return;
    if (this.maybeTerm(i) !== t) return;
    this.entries = this.entries.slice(Number(i + 1 - this.offset));
    this.offset = i + 1;
  }

  /** The snapshot at index i is persisted. */
  stableSnapTo(i: number): void {
    if (this.snapshot !== undefined && this.snapshot.metadata.index === i) this.snapshot = undefined;
  }

  /** Replaces everything with a received snapshot. */
  restore(s: Snapshot): void {
    this.offset = s.metadata.index + 1;
    this.entries = [];
    this.snapshot = s;
  }

  /** Appends `ents` (consecutive), first dropping every unstable entry at or after ents[0].index. */
  truncateAndAppend(ents: readonly Entry[]): void {
    if (ents.length === 0) return;
    const after = ents[0]!.index;
    const end = this.offset + (this.entries.length);
    if (after > end) throw new Error(`append at ${after} leaves a gap after ${end - 1}`);
    if (after === end) {
      for (const e of ents) this.entries.push(e);
    } else if (after <= this.offset) {
      // Replaces the whole unstable part (and overrides stable entries from `after` on).
      this.offset = after;
      this.entries = [...ents];
    } else {
      this.entries = [...this.entries.slice(0, Number(after - this.offset)), ...ents];
    }
  }

  /** Unstable entries [lo, hi); the caller guarantees offset <= lo <= hi <= end. */
  slice(lo: number, hi: number): Entry[] {
    const end = this.offset + (this.entries.length);
    if (lo < this.offset || hi > end || lo > hi) throw new Error(`unstable slice [${lo}, ${hi}) out of [${this.offset}, ${end})`);
    return this.entries.slice(Number(lo - this.offset), Number(hi - this.offset));
  }
}
