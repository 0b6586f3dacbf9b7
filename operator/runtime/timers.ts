/**
 * The clock and timer port of the operator runtime. Everything in operator/runtime that waits
 * (work-queue delays and backoff, informer restarts, leader-election renewals) goes through a
 * `Timers` object passed in, so tests can drive it on virtual time (test/operator/runtime/
 * manual-timers.ts). `systemTimers()` is the real implementation, created by main.ts.
 */

/** Cancels a scheduled callback; calling it after the callback ran, or twice, does nothing. */
export type Cancel = () => void;

export interface Timers {
  /** Milliseconds since the epoch (wall clock). */
  now(): number;
  /** Run `fn` once after `ms` milliseconds (0 or less: on a later turn of the event loop). */
  schedule(ms: number, fn: () => void): Cancel;
}

/** Timers backed by Node's setTimeout and Date.now. */
export function systemTimers(): Timers {
  return {
    now: () => Date.now(),
    schedule(ms, fn) {
      const handle = setTimeout(fn, Math.max(0, ms));
      return () => clearTimeout(handle);
    },
  };
}

/** Resolves after `ms` on `timers`, or at once when `signal` is aborted. */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      cancel();
      resolve();
    };
    const cancel = timers.schedule(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
