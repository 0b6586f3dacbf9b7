/**
 * Virtual time for runtime tests: a `Timers` whose clock moves only when the test calls
 * `advance(ms)`. Due callbacks run in time order (ties in scheduling order); after each one the
 * pending promise jobs are flushed so async code reacting to it settles before the next.
 */
import type { Timers } from '../../../operator/runtime/timers.js';

interface Entry {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
}

/** Lets pending promise jobs and I/O callbacks of already-settled work run. */
export function flush(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class ManualTimers implements Timers {
  #now: number;
  #seq = 0;
  #entries: Entry[] = [];

  constructor(start = 1_700_000_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  schedule(ms: number, fn: () => void): () => void {
    const entry: Entry = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn };
    this.#entries.push(entry);
    return () => {
      this.#entries = this.#entries.filter((e) => e !== entry);
    };
  }

  /** Delays of the pending callbacks, relative to now, in firing order. */
  pending(): number[] {
    return this.#sorted().map((e) => e.at - this.#now);
  }

  /** Moves the clock forward by `ms`, running every callback that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    await flush();
    for (;;) {
      const next = this.#sorted()[0];
      if (next === undefined || next.at > end) break;
      this.#entries = this.#entries.filter((e) => e !== next);
      this.#now = next.at;
      next.fn();
      await flush();
    }
    this.#now = end;
    await flush();
  }

  #sorted(): Entry[] {
    return [...this.#entries].sort((a, b) => a.at - b.at || a.seq - b.seq);
  }
}
