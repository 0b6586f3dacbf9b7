/**
 * Key intervals for permission checks, with etcd's "bytes affine" order: an empty bound
 * means +infinity (a range end of `\0` — "every key from `key` on" — is stored as empty).
 *
 * An interval is [begin, end). A single key `k` is the point interval [k, k + "\0").
 * `contains(set, ivl)` is true when the intervals of `set` that meet `ivl` cover it without
 * a gap; `intersects(set, ivl)` when any of them meets it. "Meets" follows etcd's interval
 * order exactly (adt.Interval.Compare): `a` meets `b` unless a lies left of b
 * (a.begin < b.begin and a.end <= b.begin) or right of it (a.begin >= b.end).
 *
 * Example: set {[a, c), [c, e)} contains [b, d) (contiguous cover) but not [b, f);
 * the point "x" is in {[a, \0)} = [a, +inf).
 */

export interface KeyInterval {
  readonly begin: Buffer;
  /** Empty = +infinity. */
  readonly end: Buffer;
}

const EMPTY = Buffer.alloc(0);

/** Compares two bounds, an empty bound being greater than every other. */
export function compareBound(a: Buffer, b: Buffer): number {
  if (a.length === 0) return b.length === 0 ? 0 : 1;
  if (b.length === 0) return -1;
  return Buffer.compare(a, b);
}

/** The point interval of one key: [key, key + "\0"). */
export function pointOf(key: Buffer): KeyInterval {
  return { begin: key, end: Buffer.concat([key, Buffer.from([0])]) };
}

/** [key, end) with `\0` read as +infinity. */
export function rangeOf(key: Buffer, end: Buffer): KeyInterval {
  return { begin: key, end: end.length === 1 && end[0] === 0 ? EMPTY : end };
}

/** Whether `a` meets `b` (etcd's interval order puts neither left nor right of the other). */
export function meets(a: KeyInterval, b: KeyInterval): boolean {
  if (compareBound(a.begin, b.begin) < 0 && compareBound(a.end, b.begin) <= 0) return false;
  return compareBound(a.begin, b.end) < 0;
}

/** Intervals sorted by begin (the order etcd's interval tree visits them in). */
export function sortIntervals(set: readonly KeyInterval[]): KeyInterval[] {
  return [...set].sort((x, y) => compareBound(x.begin, y.begin));
}

/** True when some interval of `sorted` meets `ivl`. */
export function intersects(sorted: readonly KeyInterval[], ivl: KeyInterval): boolean {
  return sorted.some((s) => meets(ivl, s));
}

/** True when the intervals of `sorted` (sorted by begin) that meet `ivl` cover it contiguously. */
export function contains(sorted: readonly KeyInterval[], ivl: KeyInterval): boolean {
  let minBegin: Buffer | undefined;
  let maxEnd: Buffer = EMPTY;
  for (const s of sorted) {
    if (!meets(ivl, s)) continue;
    if (minBegin === undefined) {
      minBegin = s.begin;
      maxEnd = s.end;
      continue;
    }
    if (compareBound(maxEnd, s.begin) < 0) return false;
    if (compareBound(s.end, maxEnd) > 0) maxEnd = s.end;
  }
  return minBegin !== undefined && compareBound(maxEnd, ivl.end) >= 0 && compareBound(minBegin, ivl.begin) <= 0;
}
