/**
 * The HPACK static table (RFC 7541 Appendix A): indexes 1 to 61, fixed by the RFC. Lookups
 * by index for the decoder, by name and by name + value for the table-free encoder.
 * Everything here is built once at load and never changes.
 */
import type { HeaderField } from './header-field.js';

const ENTRIES: readonly (readonly [string, string])[] = [
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', ''],
];

/** Number of static entries: dynamic-table indexes start after it (RFC 7541 §2.3.3). */
export const STATIC_TABLE_LENGTH = ENTRIES.length;

/** Entry `i` (1-based) as a shared, immutable field; index 0 is unused. */
const FIELDS: readonly HeaderField[] = [
  { name: '', value: '', neverIndex: false },
  ...ENTRIES.map(([name, value]) => ({ name, value, neverIndex: false })),
];

const BY_NAME: ReadonlyMap<string, number> = new Map(
  ENTRIES.map(([name], i) => [name, i + 1] as const).reverse(), // the first index of a name wins
);

/** The static field at `index` (1 … STATIC_TABLE_LENGTH). */
export function staticField(index: number): HeaderField {
  return FIELDS[index]!;
}

/** The first index of `name` in the static table, or 0. */
export function staticNameIndex(name: string): number {
  return BY_NAME.get(name) ?? 0;
}

/**
 * The index of `name: value` in the static table, or 0, given `nameIndex` =
 * `staticNameIndex(name)` (entries of one name are adjacent: a short scan, no allocation).
 */
export function staticFieldIndex(nameIndex: number, value: string): number {
  if (nameIndex === 0) return 0;
  const name = FIELDS[nameIndex]!.name;
  for (let i = nameIndex; i <= STATIC_TABLE_LENGTH && FIELDS[i]!.name === name; i++) {
    if (FIELDS[i]!.value === value) return i;
  }
  return 0;
}
