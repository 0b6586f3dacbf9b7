/**
 * From a request's `ttl` (seconds, uint64) to the absolute expiration carried in a
 * V2Request, computed the way etcd's HTTP edge does it: `now + ttl` in int64
 * nanoseconds, wrapping on overflow (a huge TTL can thus land in the past and, on
 * create/set, mean "permanent" — see MIN_EXPIRATION_MS). Returns undefined for the
 * zero instant (etcd's "no expiration").
 */
export function expirationFromTtl(ttlSeconds: bigint, nowMs: number): number | undefined {
  const ttlNs = BigInt.asIntN(64, ttlSeconds * 1_000_000_000n);
  const ns = BigInt.asIntN(64, BigInt(Math.floor(nowMs)) * 1_000_000n + ttlNs);
  if (ns === 0n) return undefined;
  const ms = ns / 1_000_000n - (ns < 0n && ns % 1_000_000n !== 0n ? 1n : 0n);
  return Number(ms);
}
