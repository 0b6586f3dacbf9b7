/**
 * A watcher's key range, normalised once at creation (ETCD-FACTS §3.1, watch rules):
 * - empty key → "\x00" (the smallest key);
 * - empty range_end → only `key`;
 * - range_end = "\x00" → every key ≥ key (open end);
 * - otherwise [key, range_end); range_end ≤ key is an empty range (a create error).
 *
 * Keys are compared as latin1 strings: one code unit per byte, so JavaScript string order
 * equals unsigned byte order.
 */

export interface KeyRange {
  /** Inclusive start, latin1. */
  readonly start: string;
  /** Exclusive end, latin1; `null` = unbounded; `undefined` = single key. */
  readonly end: string | null | undefined;
  /** The range in etcd's wire form, for the history port. */
  readonly key: Buffer;
  readonly rangeEnd: Buffer;
}

export const keyString = (key: Buffer): string => key.toString('latin1');

/** Normalises a create request's key/range_end; `undefined` when the range is empty. */
export function watchRange(key: Buffer, rangeEnd: Buffer): KeyRange | undefined {
  const k = key.length === 0 ? Buffer.from([0]) : key;
  if (rangeEnd.length === 0) return { start: keyString(k), end: undefined, key: k, rangeEnd: Buffer.alloc(0) };
  if (rangeEnd.length === 1 && rangeEnd[0] === 0) return { start: keyString(k), end: null, key: k, rangeEnd };
  if (Buffer.compare(k, rangeEnd) >= 0) return undefined;
  return { start: keyString(k), end: keyString(rangeEnd), key: k, rangeEnd };
}

/** Whether `key` (latin1) lies in the range. */
export function inRange(range: KeyRange, key: string): boolean {
  if (range.end === undefined) return key === range.start;
  return key >= range.start && (range.end === null || key < range.end);
}
