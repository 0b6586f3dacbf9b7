/**
 * A full garbage collection when the process goes quiet after its heap grew.
 *
 * V8 sizes the heap for the allocation rate it saw: after a burst (a bulk load, a snapshot
 * save, a restart's replay and index rebuild) the heap keeps several times the live bytes
 * committed — garbage and headroom — and its own memory reducer gives them back only after
 * a long quiet spell. Measured at 200 k keys right after a load: 433 MiB resident, 286 MiB after
 * one full collection. So: every PERIOD_MS the event-loop utilization of the last period is
 * read; when it was below `idleUtilization` (nothing much to do), the heap plus external
 * (ArrayBuffer) bytes grew by `growthBytes` or a quarter, whichever is more, since the last
 * collection (or the lowest point seen), and the last one is at least `minIntervalMs` old, one
 * full collection runs (a pause of the order of 100 ms per 100 MiB of live heap, taken while
 * idle). A busy process is left to V8 alone; a lightly loaded one collects at most every
 * `minIntervalMs`, and only when its heap swings by more than a quarter.
 *
 * `IdleGcPolicy` is the pure decision; `startIdleGc` runs it on a timer with the process's
 * own figures. The collect function comes from the caller (main.ts: V8's low-memory
 * notification with every fragmented page compacted, which returns the freed pages; measured
 * at 1 M keys right after a load: 760 MiB resident before, 463 MiB after, a 1 s pause).
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export interface IdleGcSettings {
  readonly periodMs: number;
  /** Event-loop utilization (0…1) of a period below which the process counts as idle. */
  readonly idleUtilization: number;
  /** Growth of heap + external bytes since the last collection that makes one worthwhile (at least a quarter). */
  readonly growthBytes: number;
  readonly minIntervalMs: number;
}

export const IDLE_GC: IdleGcSettings = { periodMs: 500, idleUtilization: 0.1, growthBytes: 64 * 1024 * 1024, minIntervalMs: 30_000 };

export class IdleGcPolicy {
  #baseline: number;
  #last: number;

  /** `bytes`: heap + external bytes now (the baseline growth is measured from). */
  constructor(
    bytes: number,
    now: number,
    private readonly settings: IdleGcSettings = IDLE_GC,
  ) {
    this.#baseline = bytes;
    this.#last = now - settings.minIntervalMs;
  }

  /** Whether to collect now, given the utilization of the period just ended and the bytes now. */
  shouldCollect(now: number, utilization: number, bytes: number): boolean {
    const s = this.settings;
    if (bytes < this.#baseline) this.#baseline = bytes;
    const growth = Math.max(s.growthBytes, this.#baseline / 4);
    return utilization < s.idleUtilization && bytes - this.#baseline >= growth && now - this.#last >= s.minIntervalMs;
  }

  /** Records a collection that ended at `now` leaving `bytes`. */
  collected(now: number, bytes: number): void {
    this.#baseline = bytes;
    this.#last = now;
  }
}

function heapBytes(): number {
  const h = getHeapStatistics();
  return h.total_heap_size + h.external_memory;
}

/** Full collection hook: `done` is called once the collection is over. */
export type Collect = (done: () => void) => void;

/**
 * Runs the policy every `settings.periodMs` (the timer does not keep the process alive);
 * `onCollected` hears each collection's pause and the bytes left. Returns stop.
 */
export function startIdleGc(collect: Collect, onCollected?: (ms: number, bytes: number) => void, settings: IdleGcSettings = IDLE_GC): () => void {
  const policy = new IdleGcPolicy(heapBytes(), performance.now(), settings);
  let elu = performance.eventLoopUtilization();
  let collecting = false;
  const timer = setInterval(() => {
    const next = performance.eventLoopUtilization();
    const utilization = performance.eventLoopUtilization(next, elu).utilization;
    elu = next;
    if (collecting || !policy.shouldCollect(performance.now(), utilization, heapBytes())) return;
    collecting = true;
    const started = performance.now();
    collect(() => {
      collecting = false;
      const bytes = heapBytes();
      policy.collected(performance.now(), bytes);
      onCollected?.(performance.now() - started, bytes);
      elu = performance.eventLoopUtilization();
    });
  }, settings.periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
