/**
 * Bounded waits for black-box tests: poll a probe until it yields a value, and fail only when a
 * generous bound is exceeded. The bound is a failure threshold, never a measured timing.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Default bound: several election timeouts of both servers, with a wide margin. */
export const GENEROUS_MS = 15_000;

/**
 * Calls `probe` every `intervalMs` until it returns something other than `undefined`, and
 * resolves with that. A probe that throws counts as "not yet" (its last error is reported).
 * Rejects after `timeoutMs` with `what` and the last observation (`describe(last)` if given).
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  opts: { readonly timeoutMs?: number; readonly intervalMs?: number; readonly describe?: () => string } = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? GENEROUS_MS;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const seen = opts.describe?.() ?? (lastError instanceof Error ? lastError.message : String(lastError ?? 'no value'));
      throw new Error(`not within ${timeoutMs} ms: ${what}; last observed: ${seen}`, { cause: lastError });
    }
    await sleep(opts.intervalMs ?? 200);
  }
}
