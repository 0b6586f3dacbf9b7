/**
 * A keyed work queue for level-triggered controllers (the shape of client-go's rate-limited
 * queue), with its own workers.
 *
 * Contract:
 * - Deduplication: a key waits in the queue at most once; adding it again while it waits is a no-op.
 * - Never concurrent: a key being processed that is added again is queued once more only after
 *   its current run finishes (so the latest state is always seen by a later run).
 * - `addAfter(key, ms)` adds it after a delay (an earlier pending delay for the key wins);
 *   `addRateLimited(key)` after the key's exponential backoff (1 s … 5 min by default);
 *   `forget(key)` resets the backoff.
 * - The process function answers with an outcome value: `Done` (forget the backoff),
 *   `RequeueAfter` (forget, then add after ms), `Retry` (add rate-limited). A thrown error is
 *   treated as `Retry` and reported to `onFailure`.
 * - Workers (default 1) start with `start()`; keys added before are kept.
 * - `shutdown()` stops accepting adds, cancels pending delays, lets the workers drain what is
 *   queued and in flight (their requeue requests are dropped), then resolves;
 *   `shutdown({ drain: false })` drops the queued keys and waits only for the runs in flight
 *   (a controller that lost leadership must not start new work).
 * All waiting goes through the injected `Timers`.
 */
import { KeyedBackoff, type BackoffOptions } from './backoff.js';
import type { Cancel, Timers } from './timers.js';

export type ProcessOutcome =
  | { readonly kind: 'Done' }
  | { readonly kind: 'RequeueAfter'; readonly ms: number }
  | { readonly kind: 'Retry'; readonly error: unknown };

export const Outcome = {
  done: { kind: 'Done' } as ProcessOutcome,
  requeueAfter: (ms: number): ProcessOutcome => ({ kind: 'RequeueAfter', ms }),
  retry: (error: unknown): ProcessOutcome => ({ kind: 'Retry', error }),
} as const;

export interface WorkQueueOptions<K> {
  /** Handles one key; never called twice at once for the same key. */
  readonly process: (key: K) => Promise<ProcessOutcome>;
  readonly timers: Timers;
  /** Parallel workers (default 1). */
  readonly workers?: number;
  readonly backoff?: BackoffOptions;
  /** Called with the number of keys waiting whenever it changes (for the work_queue_depth gauge). */
  readonly onDepth?: (depth: number) => void;
  /** Called when a run ends in Retry or throws; `delayMs` is the backoff before the next run. */
  readonly onFailure?: (key: K, error: unknown, delayMs: number) => void;
}

export class WorkQueue<K = string> {
  readonly #o: WorkQueueOptions<K>;
  readonly #workers: number;
  readonly #queue: K[] = [];
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #delayed = new Map<K, { readonly at: number; readonly cancel: Cancel }>();
  readonly #backoff: KeyedBackoff<K>;
  #started = false;
  #shuttingDown = false;
  #running = 0;
  #idle: (() => void)[] = [];

  constructor(options: WorkQueueOptions<K>) {
    this.#o = options;
    this.#workers = Math.max(1, options.workers ?? 1);
    this.#backoff = new KeyedBackoff<K>(options.backoff);
  }

  /** Starts the workers (idempotent). */
  start(): void {
    this.#started = true;
    this.#pump();
  }

  /** Queues `key` unless it is already waiting (ignored after shutdown). */
  add(key: K): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#processing.has(key)) return; // re-queued when its run finishes
    this.#queue.push(key);
    this.#depthChanged();
    this.#pump();
  }

  /** Queues `key` after `ms` (≤ 0: now). A pending earlier delay for the key is kept. */
  addAfter(key: K, ms: number): void {
    if (this.#shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.#o.timers.now() + ms;
    const pending = this.#delayed.get(key);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      pending.cancel();
    }
    const cancel = this.#o.timers.schedule(ms, () => {
      this.#delayed.delete(key);
      this.add(key);
    });
    this.#delayed.set(key, { at, cancel });
  }

  /** Queues `key` after its next backoff delay; returns that delay. */
  addRateLimited(key: K): number {
    const delay = this.#backoff.next(key);
    this.addAfter(key, delay);
    return delay;
  }

  /** Resets the backoff of `key`. */
  forget(key: K): void {
    this.#backoff.forget(key);
  }

  /** Consecutive failures of `key` since its last forget. */
  failures(key: K): number {
    return this.#backoff.failures(key);
  }

  /** Keys waiting to be processed (not counting runs in flight or delayed adds). */
  depth(): number {
    return this.#queue.length;
  }

  /** Keys with a pending delayed add. */
  delayedCount(): number {
    return this.#delayed.size;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Stops accepting keys; resolves once what is queued (unless drain is false) and in flight is done. */
  shutdown(options: { readonly drain?: boolean } = {}): Promise<void> {
    this.#shuttingDown = true;
    if (options.drain === false) {
      this.#dirty.clear(); // also forgets re-adds of keys in flight
      this.#queue.length = 0;
      this.#depthChanged();
    }
    for (const { cancel } of this.#delayed.values()) cancel();
    this.#delayed.clear();
    this.#started = true; // draining needs the workers
    this.#pump();
    return this.#whenIdle();
  }

  #whenIdle(): Promise<void> {
    if (this.#running === 0 && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pump(): void {
    while (this.#started && this.#running < this.#workers && this.#queue.length > 0) {
      const key = this.#queue.shift() as K;
      this.#dirty.delete(key);
      this.#processing.add(key);
      this.#running += 1;
      this.#depthChanged();
      void this.#run(key);
    }
    if (this.#running === 0 && this.#queue.length === 0 && this.#idle.length > 0) {
      const waiters = this.#idle;
      this.#idle = [];
      for (const resolve of waiters) resolve();
    }
  }

  async #run(key: K): Promise<void> {
    let outcome: ProcessOutcome;
    try {
      outcome = await this.#o.process(key);
    } catch (error) {
      outcome = { kind: 'Retry', error };
    }
    this.#processing.delete(key);
    this.#running -= 1;
    if (this.#dirty.has(key)) {
      this.#queue.push(key); // added while in flight: run again, now that this run is over
      this.#depthChanged();
    }
    this.#settle(key, outcome);
    this.#pump();
  }

  #settle(key: K, outcome: ProcessOutcome): void {
    switch (outcome.kind) {
      case 'Done':
        this.#backoff.forget(key);
        return;
      case 'RequeueAfter':
        this.#backoff.forget(key);
        this.addAfter(key, outcome.ms);
        return;
      case 'Retry': {
        const delay = this.#shuttingDown ? 0 : this.addRateLimited(key);
        this.#o.onFailure?.(key, outcome.error, delay);
        return;
      }
    }
  }

  #depthChanged(): void {
    this.#o.onDepth?.(this.#queue.length);
  }
}
