/**
 * The catch-up loop: brings unsynced watchers up to the hub's revision by reading history in
 * bounded windows, then hands them to the synced group.
 *
 * One loop per hub (started by kick(), ends when no unsynced watcher is eligible). Each round
 * reads, concurrently, one window [minRev, min(minRev + window − 1, target)] for up to
 * `concurrency` eligible watchers (unsynced, no read in flight, stream not blocked, not parked);
 * a watcher with more to read goes behind the others, so a long backlog cannot starve them.
 *
 * No skip, no repeat while notify() runs during a read: an unsynced watcher gets no live
 * events, so everything from minRev on comes from history. After a read the watcher's minRev
 * becomes to + 1; the move to synced happens in the same synchronous step as the check
 * "minRev > target", so no notify() can fall in between. A read whose watcher changed meanwhile
 * (cancelled, compacted, closed, or its minRev moved) is discarded; a read that finds the
 * stream blocked is discarded too and redone once the stream drains (minRev unchanged).
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { Result } from '../errors/domain-error.js';
import { inRange, keyString } from './key-range.js';
import { WatcherState, type Watcher } from './watcher.js';

export interface CatchUpHost {
  readonly unsynced: ReadonlySet<Watcher>;
  /** The revision through which events exist (the hub's revision). */
  target(): bigint;
  history(from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>>;
  /** Hands a window's matching events (revision order, unfiltered) to the watcher. */
  deliver(w: Watcher, events: Event[]): void;
  /** The watcher reached the target: move it to synced. */
  caughtUp(w: Watcher): void;
  /** The watcher has more to read: put it behind the others (round robin). */
  requeue(w: Watcher): void;
  /** History below the watcher's minRev is gone. */
  compacted(w: Watcher, compactRevision: bigint): void;
}

export class CatchUp {
  private running = false;
  private parked = 0;

  constructor(
    private readonly host: CatchUpHost,
    private readonly window: bigint,
    private readonly concurrency: number,
  ) {}

  /** Watchers whose last read failed with an error other than Compacted. */
  get parkedCount(): number {
    return this.parked;
  }

  /** Starts the loop if idle; parked watchers become eligible again. */
  kick(): void {
    if (this.parked > 0) {
      for (const w of this.host.unsynced) w.parked = false;
      this.parked = 0;
    }
    if (!this.running) void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      for (;;) {
        const batch = this.eligible();
        if (batch.length === 0) return;
        await Promise.all(batch.map((w) => this.step(w)));
      }
    } finally {
      this.running = false;
    }
  }

  private eligible(): Watcher[] {
    const batch: Watcher[] = [];
    for (const w of this.host.unsynced) {
      if (w.reading || w.parked || w.stream.blocked) continue;
      batch.push(w);
      if (batch.length >= this.concurrency) break;
    }
    return batch;
  }

  private async step(w: Watcher): Promise<void> {
    const from = w.minRev;
    const target = this.host.target();
    const to = from + this.window - 1n < target ? from + this.window - 1n : target;
    if (from > to) {
      this.host.caughtUp(w);
      return;
    }
    w.reading = true;
    const res = await this.read(from, to, w);
    w.reading = false;
    if (w.state !== WatcherState.Unsynced || w.minRev !== from) return;
    if (!res.ok) {
      if (res.error.kind === 'Compacted') {
        this.host.compacted(w, res.error.compactRevision);
      } else if (!w.parked) {
        w.parked = true;
        this.parked++;
      }
      return;
    }
    if (w.stream.blocked) return;
    const events = res.value.filter((ev) => {
      const kv = ev.kv;
      return kv !== undefined && kv.modRevision >= from && kv.modRevision <= to && inRange(w.range, keyString(kv.key));
    });
    w.minRev = to + 1n;
    if (events.length > 0) this.host.deliver(w, events);
    if (w.state !== WatcherState.Unsynced) return;
    if (w.minRev > this.host.target()) this.host.caughtUp(w);
    else this.host.requeue(w);
  }

  private async read(from: bigint, to: bigint, w: Watcher): Promise<Result<Event[]>> {
    try {
      return await this.host.history(from, to, w.range.key, w.range.rangeEnd);
    } catch (cause) {
      return { ok: false, error: { kind: 'Internal', message: `watch history read failed: ${String(cause)}` } };
    }
  }
}
