/**
 * Require-leader for open streams (ETCD-FACTS §0): one monitor per member samples the
 * member's leader state once per election timeout; after 3 consecutive samples without a
 * leader it cancels every open stream that asked for a leader (metadata `hasleader: true`),
 * which then ends with `etcdserver: no leader` (Unavailable).
 *
 * Contract:
 * - `register(cancel)` adds a stream and returns its removal (call it when the stream ends);
 * - a cancel runs at most once, and a cancelled stream is forgotten;
 * - a sample with a leader resets the count;
 * - the sampling timer runs only while at least one stream is registered, and the count
 *   starts from 0 with it (a stream registers only while there is a leader, so nothing is lost).
 * Time is a port (`Scheduler`); `sample()` is the whole decision, so a test drives it directly.
 */

/** Election timeouts without a leader after which require-leader streams are cancelled. */
export const MAX_NO_LEADER_PERIODS = 3;

/** Runs `fn` every `ms` until the returned stop is called. */
export interface Scheduler {
  every(ms: number, fn: () => void): () => void;
}

/** The real clock: an unref'd interval (it never keeps the process alive). */
export const intervalScheduler: Scheduler = {
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export class NoLeaderMonitor {
  readonly #streams = new Set<() => void>();
  readonly #hasLeader: () => boolean;
  readonly #periodMs: number;
  readonly #scheduler: Scheduler;
  #periods = 0;
  #stop: (() => void) | undefined;

  /** @param periodMs the member's election timeout. */
  constructor(hasLeader: () => boolean, periodMs: number, scheduler: Scheduler = intervalScheduler) {
    this.#hasLeader = hasLeader;
    this.#periodMs = periodMs;
    this.#scheduler = scheduler;
  }

  /** Consecutive samples without a leader so far. */
  get periodsWithoutLeader(): number {
    return this.#periods;
  }

  /** Streams currently watched. */
  get size(): number {
    return this.#streams.size;
  }

  /** Watches one stream; `cancel` ends it with NoLeader. Returns the removal. */
  register(cancel: () => void): () => void {
    const entry = (): void => cancel();
    this.#streams.add(entry);
    this.#stop ??= this.#scheduler.every(this.#periodMs, () => this.sample());
    return () => {
      this.#streams.delete(entry);
      this.#idle();
    };
  }

  /** One election timeout has passed: count, and cancel every stream at the limit. */
  sample(): void {
    this.#periods = this.#hasLeader() ? 0 : this.#periods + 1;
    if (this.#periods < MAX_NO_LEADER_PERIODS) return;
    const cancels = [...this.#streams];
    this.#streams.clear();
    for (const cancel of cancels) cancel();
    this.#idle();
  }

  #idle(): void {
    if (this.#streams.size > 0 || !this.#stop) return;
    this.#stop();
    this.#stop = undefined;
    this.#periods = 0;
  }
}
