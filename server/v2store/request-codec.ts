/**
 * A V2Request as the bytes of a log entry: UTF-8 JSON with the request's own field names,
 * `prevIndex` as a decimal string, absent fields left out (FORMAT.md).
 *
 * Contract: `decodeV2Request(encodeV2Request(r))` deep-equals `r` (with undefined fields
 * dropped). Decoding malformed bytes throws: log entries are our own data.
 */
import { V2Method, type V2Request } from './types.js';

interface RequestJSON {
  method: string;
  path: string;
  value?: string;
  dir?: boolean;
  prevValue?: string;
  prevIndex?: string;
  prevExist?: boolean;
  recursive?: boolean;
  sorted?: boolean;
  refresh?: boolean;
  expiration?: number;
}

export function encodeV2Request(r: V2Request): Uint8Array {
  const j: RequestJSON = { method: r.method, path: r.path };
  if (r.value !== undefined) j.value = r.value;
  if (r.dir !== undefined) j.dir = r.dir;
  if (r.prevValue !== undefined) j.prevValue = r.prevValue;
  if (r.prevIndex !== undefined) j.prevIndex = r.prevIndex.toString();
  if (r.prevExist !== undefined) j.prevExist = r.prevExist;
  if (r.recursive !== undefined) j.recursive = r.recursive;
  if (r.sorted !== undefined) j.sorted = r.sorted;
  if (r.refresh !== undefined) j.refresh = r.refresh;
  if (r.expiration !== undefined) j.expiration = r.expiration;
  return new TextEncoder().encode(JSON.stringify(j));
}

const METHODS = new Set<string>(Object.values(V2Method));
const BOOLS = ['dir', 'prevExist', 'recursive', 'sorted', 'refresh'] as const;
const STRINGS = ['value', 'prevValue'] as const;

export function decodeV2Request(bytes: Uint8Array): V2Request {
  const j = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as Record<string, unknown>;
  if (typeof j !== 'object' || j === null) throw new Error('v2 request: not a JSON object');
  if (typeof j.method !== 'string' || !METHODS.has(j.method)) throw new Error(`v2 request: bad method ${String(j.method)}`);
  if (typeof j.path !== 'string') throw new Error('v2 request: path is not a string');
  const out: Record<string, unknown> = { method: j.method, path: j.path };
  for (const k of STRINGS) {
    if (j[k] === undefined) continue;
    if (typeof j[k] !== 'string') throw new Error(`v2 request: ${k} is not a string`);
    out[k] = j[k];
  }
  for (const k of BOOLS) {
    if (j[k] === undefined) continue;
    if (typeof j[k] !== 'boolean') throw new Error(`v2 request: ${k} is not a boolean`);
    out[k] = j[k];
  }
  if (j.prevIndex !== undefined) {
    if (typeof j.prevIndex !== 'string' || !/^[0-9]+$/.test(j.prevIndex)) throw new Error('v2 request: prevIndex is not a decimal string');
    out.prevIndex = BigInt(j.prevIndex);
  }
  if (j.expiration !== undefined) {
    if (typeof j.expiration !== 'number' || !Number.isFinite(j.expiration)) throw new Error('v2 request: expiration is not a number');
    out.expiration = j.expiration;
  }
  return out as unknown as V2Request;
}
