/**
 * Go `time.ParseDuration` for flag values: a possibly signed sequence of decimal numbers,
 * each with an optional fraction and a unit (`ns`, `us`/`µs`/`μs`, `ms`, `s`, `m`, `h`),
 * e.g. `300ms`, `-1.5h`, `2h45m`. A bare `0` is allowed; any other number needs a unit.
 *
 * Results are milliseconds (fractions kept: `1500us` → 1.5).
 */

export type DurationResult = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly reason: string };

const UNIT_NS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  'µs': 1e3, // U+00B5 micro sign
  'μs': 1e3, // U+03BC greek mu
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

const MAX_INT64_NS = 2 ** 63 - 1;

const PART = /^([0-9]*)(?:\.([0-9]*))?([^0-9.]*)/;

/** Parses Go duration text. The reason of a failure quotes the text the way Go does. */
export function parseGoDuration(text: string): DurationResult {
  const quoted = JSON.stringify(text);
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return { ok: true, ms: 0 };
  if (rest === '') return { ok: false, reason: `invalid duration ${quoted}` };
  let totalNs = 0;
  while (rest !== '') {
    const m = PART.exec(rest);
    if (m === null) return { ok: false, reason: `invalid duration ${quoted}` };
    const [whole, intPart = '', fracPart, unit = ''] = m;
    if (intPart === '' && (fracPart === undefined || fracPart === '')) return { ok: false, reason: `invalid duration ${quoted}` };
    if (unit === '') return { ok: false, reason: `missing unit in duration ${quoted}` };
    const factor = UNIT_NS[unit];
    if (factor === undefined) return { ok: false, reason: `unknown unit ${JSON.stringify(unit)} in duration ${quoted}` };
    totalNs += Number(`${intPart === '' ? '0' : intPart}.${fracPart ?? ''}0`) * factor;
    rest = rest.slice(whole.length);
  }
  // Go's time.Duration is an int64 of nanoseconds.
  if (totalNs > MAX_INT64_NS) return { ok: false, reason: `invalid duration ${quoted}` };
  return { ok: true, ms: (sign * totalNs) / 1e6 };
}
