/**
 * Lease id generator for grants that arrive with ID 0 (the proposer picks the id, so ids
 * are identical on every member once the grant is in the log).
 *
 * Layout of a generated id (as etcd's idutil.Generator, masked to a positive int64):
 *   bits 63..48  low 16 bits of the member id (bit 63 then cleared)
 *   bits 47..0   counter seeded with (low 40 bits of nowMs) << 8, incremented per id
 * Ids are unique per member across restarts as long as fewer than 256 ids per ms are
 * drawn on average; they are never 0 and never negative.
 */

const SUFFIX_BITS = 48n;
const TIMESTAMP_BITS = 40n;
const COUNTER_BITS = 8n;
const SUFFIX_MASK = (1n << SUFFIX_BITS) - 1n;
const POSITIVE_MASK = (1n << 63n) - 1n;

/** Returns a generator of positive int64 lease ids; `nowMs` is the wall-clock ms at start. */
export function createLeaseIdGenerator(memberId: bigint, nowMs: number): () => bigint {
  const prefix = BigInt.asUintN(16, memberId) << SUFFIX_BITS;
  let suffix = BigInt.asUintN(Number(TIMESTAMP_BITS), BigInt(Math.floor(nowMs))) << COUNTER_BITS;
  return () => {
    for (;;) {
      suffix += 1n;
      const id = (prefix | (suffix & SUFFIX_MASK)) & POSITIVE_MASK;
      if (id !== 0n) return id;
    }
  };
}
