/**
 * Latency histogram with log-spaced buckets: bucket i covers [GROWTH^i, GROWTH^(i+1)) microseconds,
 * so any reported quantile is within 1 % of a recorded value. Fixed size (no allocation while
 * recording), mergeable by adding counts, and structured-clone friendly (plain Uint32Array).
 */

const GROWTH = 1.01;
const LOG_GROWTH = Math.log(GROWTH);
/** 1.01^2200 µs ≈ 3.1e9 µs ≈ 52 min: far above any request deadline. */
export const BUCKETS = 2200;

export type Histogram = Uint32Array;

export function newHistogram(): Histogram {
  return new Uint32Array(BUCKETS);
}

/** Records one latency in microseconds; values below 1 µs land in bucket 0, huge values in the last. */
export function record(h: Histogram, micros: number): void {
  const i = micros <= 1 ? 0 : Math.floor(Math.log(micros) / LOG_GROWTH);
  h[i < BUCKETS ? i : BUCKETS - 1]++;
}

/** Adds `src` into `dst` in place. */
export function mergeInto(dst: Histogram, src: Histogram): void {
  for (let i = 0; i < BUCKETS; i++) dst[i] += src[i];
}

export function count(h: Histogram): number {
  let n = 0;
  for (let i = 0; i < BUCKETS; i++) n += h[i];
  return n;
}

/** The q-quantile (0 < q ≤ 1) in microseconds, as the geometric middle of its bucket; NaN when empty. */
export function quantile(h: Histogram, q: number): number {
  const n = count(h);
  if (n === 0) return NaN;
  const rank = Math.max(1, Math.ceil(q * n));
  let seen = 0;
  for (let i = 0; i < BUCKETS; i++) {
    seen += h[i];
    if (seen >= rank) return Math.pow(GROWTH, i + 0.5);
  }
  return Math.pow(GROWTH, BUCKETS);
}
