/**
 * Reconnect delays: exponential from `initialMs`, doubling per consecutive failure, capped at
 * `maxMs`, with "equal jitter" (half fixed, half random) so members that lost each other at the
 * same moment do not redial in lock-step. Pure: the random source is passed in.
 *
 * Example (initial 50, max 1000): failures 1, 2, 3, 4, 5, 6… → bases 50, 100, 200, 400, 800,
 * 1000… → delays in [25,50], [50,100], [100,200], [200,400], [400,800], [500,1000]…
 */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly maxMs: number;
}

/**
 * @param failures consecutive failed attempts so far (≥ 1).
 * @param random a number in [0, 1).
 */
export function backoffDelay(policy: BackoffPolicy, failures: number, random: number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const base = Math.min(policy.maxMs, policy.initialMs * 2 ** exponent);
  return Math.round(base / 2 + (base / 2) * random);
}
