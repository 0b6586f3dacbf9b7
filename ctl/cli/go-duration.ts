/**
 * Go's time.Duration text: parsing flag values such as `5s`, `1m30s`, `500ms`, and printing
 * durations the way Go's `Duration.String()` does (`1.5s`, `857.258µs`, `2m3.5s`).
 */
const UNIT_NS: Readonly<Record<string, number>> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

/** Milliseconds of a Go duration string, or undefined when it does not parse. */
export function parseGoDurationMs(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let neg = false;
  let body = s;
  if (body.startsWith('-') || body.startsWith('+')) {
    neg = body.startsWith('-');
    body = body.slice(1);
  }
  if (body === '') return undefined;
  re.lastIndex = 0;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    total += Number(m[1]) * UNIT_NS[m[2]];
    matched = re.lastIndex;
  }
  if (matched !== body.length) return undefined;
  return (neg ? -total : total) / 1e6;
}

function fraction(value: bigint, digits: number): string {
  // value has `digits` fractional digits; Go drops trailing zeros (and the dot when none remain).
  const s = value.toString().padStart(digits + 1, '0');
  const int = s.slice(0, s.length - digits);
  const frac = s.slice(s.length - digits).replace(/0+$/, '');
  return frac === '' ? int : `${int}.${frac}`;
}

/** Go's Duration.String() of `ns` nanoseconds. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  const u = neg ? -ns : ns;
  let out: string;
  if (u < 1000n) out = `${u}ns`;
  else if (u < 1_000_000n) out = `${fraction(u, 3)}µs`;
  else if (u < 1_000_000_000n) out = `${fraction(u, 6)}ms`;
  else {
    const h = u / 3_600_000_000_000n;
    const m = (u / 60_000_000_000n) % 60n;
    const sNs = u % 60_000_000_000n;
    const secs = `${fraction(sNs, 9)}s`;
    out = h > 0n ? `${h}h${m}m${secs}` : m > 0n ? `${m}m${secs}` : secs;
  }
  return neg ? `-${out}` : out;
}
