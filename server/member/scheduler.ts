/**
 * The member's view of time and deferral, as a port, so a simulation can run real member
 * code on virtual time. `realScheduler` is the process's own event loop.
 */
export interface Scheduler {
  /** Milliseconds since some epoch. */
  now(): number;
  /** Runs `fn` every `ms`; returns a canceller. */
  every(ms: number, fn: () => void): () => void;
  /** Runs `fn` after the current task (before I/O). */
  soon(fn: () => void): void;
  /** Runs `fn` after pending I/O has been processed. */
  later(fn: () => void): void;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  every(ms, fn) {
    const t = setInterval(fn, ms);
    t.unref();
    return () => clearInterval(t);
  },
  soon: (fn) => queueMicrotask(fn),
  later: (fn) => void setImmediate(fn),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};
