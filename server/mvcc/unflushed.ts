/**
 * Changes that transactions ended but the backend does not hold yet.
 *
 * One group per main revision, in revision order: the events of that transaction, indexed by
 * sub revision. A group is "pending" until a flush takes it, then "in flight" until that
 * flush's write resolves (`release`); in both states it stays readable here, so every ended
 * change is always in the backend or in this map. Compaction may blank (set to undefined)
 * pending events it made useless; in-flight ones are left to the compaction's backend pass.
 * Pure module. Events are shared with callers of WriteTxn.end and must not be mutated.
 */
import { Event_EventType } from '../../proto/gen/etcd/kv.js';
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { RevisionSet } from './revision-set.js';

/** The events of one main revision by sub revision; undefined = removed by compaction. */
export type ChangeGroup = readonly (Event | undefined)[];

/** Groups handed to one flush, in revision order. */
export type FlushBatch = readonly (readonly [bigint, ChangeGroup])[];

export class Unflushed {
  /** Insertion order is revision order. */
  private readonly groups = new Map<bigint, (Event | undefined)[]>();
  private pending: bigint[] = [];
  /** Key and value bytes of each group, as added (compaction's blanks do not lower them). */
  private readonly sizes = new Map<bigint, number>();
  private total = 0;

  /** Key and value bytes of the changes held here: what waits in memory for the backend. */
  get bytes(): number {
    return this.total;
  }

  get isEmpty(): boolean {
    return this.groups.size === 0;
  }

  /** Adds the events of main revision `main` (newer than every group here). */
  add(main: bigint, events: Event[]): void {
    this.groups.set(main, events);
    this.pending.push(main);
    let n = 0;
    // A read replica may be handed a group that compaction blanked in part.
    for (const e of events as readonly (Event | undefined)[]) if (e?.kv !== undefined) n += e.kv.key.length + e.kv.value.length;
    this.sizes.set(main, n);
    this.total += n;
  }

  /** The event written at (main, sub), if it is still unflushed. */
  get(main: bigint, sub: number): Event | undefined {
    return this.groups.get(main)?.[sub];
  }

  /** The lowest unflushed main revision. */
  lowest(): bigint | undefined {
    for (const main of this.groups.keys()) return main;
    return undefined;
  }

  /** `lowest()` as a number (exact below 2^53). */
  lowestNumber(): number | undefined {
    for (const main of this.groups.keys()) return Number(main);
    return undefined;
  }

  /** Hands every pending group to a flush. */
  takePending(): FlushBatch {
    const batch: [bigint, ChangeGroup][] = [];
    for (const main of this.pending) {
      const g = this.groups.get(main);
      if (g !== undefined) batch.push([main, g]);
    }
    this.pending = [];
    return batch;
  }

  /** The batch is in the backend now. */
  release(batch: FlushBatch): void {
    for (const [main] of batch) this.drop(main);
  }

  /** Every group with main ≤ `main` is in the backend (a read replica's release). */
  releaseThrough(main: bigint): void {
    for (const m of this.groups.keys()) {
      if (m > main) break;
      this.drop(m);
    }
    let n = 0;
    while (n < this.pending.length && this.pending[n] <= main) n++;
    if (n > 0) this.pending = this.pending.slice(n);
  }

  private drop(main: bigint): void {
    this.groups.delete(main);
    this.total -= this.sizes.get(main) ?? 0;
    this.sizes.delete(main);
  }

  /** The batch's write failed: its groups become pending again, ahead of newer ones. */
  requeue(batch: FlushBatch): void {
    this.pending = batch.map(([main]) => main).concat(this.pending);
  }

  /** Blanks pending events at main ≤ `main` whose revision is not in `keep`. */
  purge(main: bigint, keep: RevisionSet): void {
    for (const m of this.pending) {
      if (m > main) break;
      const g = this.groups.get(m);
      if (g === undefined) continue;
      for (let sub = 0; sub < g.length; sub++) {
        const e = g[sub];
        // A tombstone is never dropped before it reaches the backend: an older put of its key
        // may already be there, and a crash before the compaction's backend pass would bring
        // the key back. Flushed, it is removed by that (or the next) compaction pass.
        if (e !== undefined && e.type !== Event_EventType.DELETE && !keep.has(Number(m), sub)) g[sub] = undefined;
      }
    }
  }

  /** The groups with main in [from, to], in revision order (a snapshot of the references). */
  between(from: bigint, to: bigint): FlushBatch {
    const out: [bigint, ChangeGroup][] = [];
    for (const [main, g] of this.groups) {
      if (main > to) break;
      if (main >= from) out.push([main, g]);
    }
    return out;
  }
}
