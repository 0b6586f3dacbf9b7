/**
 * Lease TTL bounds (ETCD-FACTS §3.7).
 *
 * - maximum granted TTL: 9,000,000,000 s (a larger request fails with LeaseTTLTooLarge);
 * - minimum: ceil(1.5 × election timeout) seconds, where the election timeout is
 *   electionTicks × heartbeat interval; requests below it are raised to it
 *   (2 s with the defaults 10 ticks × 100 ms).
 */

/** The largest TTL a grant accepts, in seconds. */
export const MAX_LEASE_TTL_SECONDS = 9_000_000_000n;

/** The id meaning "no lease" on the wire; never a real lease. */
export const NO_LEASE = 0n;

/**
 * Minimum lease TTL in whole seconds, computed as etcd does:
 * floor(3 × electionTicks / 2) × heartbeatMs, rounded up to whole seconds.
 */
export function minLeaseTtlSeconds(electionTicks: number, heartbeatMs: number): bigint {
  const ms = BigInt(Math.floor((3 * electionTicks) / 2)) * BigInt(Math.round(heartbeatMs));
  return (ms + 999n) / 1000n;
}
