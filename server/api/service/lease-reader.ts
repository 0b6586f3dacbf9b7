/** The lessor's read side and leader-only renewals, as the lease service uses them. */
export interface LeaseReader {
  renew(id: bigint, nowMs: number): bigint;
  timeToLive(id: bigint, nowMs: number): { ttl: bigint; grantedTTL: bigint; keys: readonly Buffer[] } | undefined;
  leases(): readonly bigint[];
}
