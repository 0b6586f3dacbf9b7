/**
 * etcd's `range_end` rules, turned into bounds once per request (ETCD-FACTS §3.1):
 * - empty range_end → the single key `key`;
 * - range_end = [0x00] → every key ≥ key (key = [0x00] then means all keys);
 * - range_end ≤ key → nothing;
 * - otherwise the half-open interval [key, range_end).
 * Pure module.
 */

export type KeyBounds =
  | { readonly kind: 'none' }
  | { readonly kind: 'single'; readonly key: Buffer }
  /** `high` undefined: unbounded above. */
  | { readonly kind: 'interval'; readonly low: Buffer; readonly high: Buffer | undefined };

const NONE: KeyBounds = { kind: 'none' };

export function keyBounds(key: Buffer, rangeEnd: Buffer): KeyBounds {
  if (rangeEnd.length === 0) return { kind: 'single', key };
  if (rangeEnd.length === 1 && rangeEnd[0] === 0) return { kind: 'interval', low: key, high: undefined };
  if (Buffer.compare(rangeEnd, key) <= 0) return NONE;
  return { kind: 'interval', low: key, high: rangeEnd };
}

export function inBounds(bounds: KeyBounds, key: Buffer): boolean {
  switch (bounds.kind) {
    case 'none':
      return false;
    case 'single':
      return key.equals(bounds.key);
    case 'interval':
      return Buffer.compare(key, bounds.low) >= 0 && (bounds.high === undefined || Buffer.compare(key, bounds.high) < 0);
  }
}
