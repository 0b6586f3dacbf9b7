/**
 * JSON with its object keys sorted, the two ways the API server uses it:
 * - `canonicalJson(v)`: the text of a value with sorted keys, so equal values give equal text
 *   whatever order their keys came in (how a write that changes nothing is told apart: the API
 *   server compares the encoded object it would store with the stored one);
 * - `withSortedKeys(v)`: a copy with the keys of every object sorted, which is how the API server
 *   stores and serves custom resources (they are decoded into maps, and Go encodes maps with sorted
 *   keys); built-in kinds keep their fields in the order of their Go structs, which this server
 *   does not know, so they are kept as written.
 * Pure.
 */
import type { Json } from './types.js';

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

export function canonicalJson(v: Json | undefined): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`).join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

export function withSortedKeys<T extends Json>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => withSortedKeys(x)) as T;
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, withSortedKeys(v[k] as Json)])) as T;
}
