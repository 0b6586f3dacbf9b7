/**
 * go-humanize's `Bytes` (SI units, one decimal below 10): `20 kB`, `1.5 MB`, `512 B`.
 * Go prints `%.0f` with round-half-to-even, which this reproduces for exact halves.
 */
const SIZES = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'] as const;

function goFixed0(v: number): string {
  const f = Math.floor(v);
  if (v - f === 0.5) return String(f % 2 === 0 ? f : f + 1);
  return v.toFixed(0);
}

export function humanizeBytes(n: bigint | number): string {
  const s = Number(n);
  if (s < 10) return `${s} B`;
  const e = Math.floor(Math.log(s) / Math.log(1000));
  const suffix = SIZES[Math.min(e, SIZES.length - 1)];
  const val = Math.floor((s / 1000 ** e) * 10 + 0.5) / 10;
  return val < 10 ? `${val.toFixed(1)} ${suffix}` : `${goFixed0(val)} ${suffix}`;
}
