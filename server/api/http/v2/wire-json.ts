/**
 * The v2 JSON bodies, byte for byte as etcd 3.4 writes them with Go's encoding/json
 * (FORMAT.md): field order of the Go structs, `omitempty` rules, HTML-safe string escapes
 * (`<` `>` `&` U+2028 U+2029 as \uXXXX; other control characters as \u00XX except \n \r \t),
 * times as RFC 3339 with trailing fractional zeros dropped, and a trailing newline where
 * etcd uses json.Encoder.
 *
 * Keys are shown without the `/1` prefix of the user key space (Go's strings.TrimPrefix),
 * so the root of the key space has no `key` at all.
 */
import type { V2Error } from '../../../v2store/errors.js';
import { V2Action, type V2Event, type V2Node } from '../../../v2store/types.js';
import type { V2Member } from './port.js';

export const KEYS_PREFIX = '/1';

export function goString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) out += s[i] + s[++i];
    else if (c >= 0xd800 && c <= 0xdfff) out += '\\ufffd';
    else out += s[i];
  }
  return `${out}"`;
}

/** Go's time.Time JSON (RFC3339Nano, UTC) for a millisecond instant. */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d*?)0*Z$/, (_m, frac: string) => (frac === '' ? 'Z' : `.${frac}Z`));
}

export function trimKeyPrefix(key: string): string {
  return key.startsWith(KEYS_PREFIX) ? key.slice(KEYS_PREFIX.length) : key;
}

export function nodeJson(n: V2Node): string {
  const parts: string[] = [];
  const key = trimKeyPrefix(n.key);
  if (key !== '') parts.push(`"key":${goString(key)}`);
  if (n.value !== undefined) parts.push(`"value":${goString(n.value)}`);
  if (n.dir) parts.push('"dir":true');
  if (n.expiration !== undefined) parts.push(`"expiration":"${rfc3339(n.expiration)}"`);
  if (n.ttl !== undefined && n.ttl !== 0) parts.push(`"ttl":${n.ttl}`);
  if (n.nodes && n.nodes.length > 0) parts.push(`"nodes":[${n.nodes.map(nodeJson).join(',')}]`);
  if (n.modifiedIndex !== 0n) parts.push(`"modifiedIndex":${n.modifiedIndex}`);
  if (n.createdIndex !== 0n) parts.push(`"createdIndex":${n.createdIndex}`);
  return `{${parts.join(',')}}`;
}

const VALUE_ACTIONS: ReadonlySet<string> = new Set([V2Action.Set, V2Action.CompareAndSwap, V2Action.Create, V2Action.Update]);

/**
 * An event body + newline. `refresh` is never written: etcd copies events before writing
 * them and the copy drops it. With `noValueOnSuccess`, set/create/update/compareAndSwap
 * answers carry only the action.
 */
export function eventBody(e: V2Event, noValueOnSuccess = false): string {
  if (noValueOnSuccess && VALUE_ACTIONS.has(e.action)) return `{"action":${goString(e.action)}}\n`;
  const prev = e.prevNode ? `,"prevNode":${nodeJson(e.prevNode)}` : '';
  return `{"action":${goString(e.action)},"node":${nodeJson(e.node)}${prev}}\n`;
}

/** `{"errorCode":N,"message":…,"cause":…,"index":N}` + newline (cause left out when empty). */
export function errorBody(e: V2Error): string {
  const cause = e.cause ? `,"cause":${goString(e.cause)}` : '';
  return `{"errorCode":${e.errorCode},"message":${goString(e.message)}${cause},"index":${e.index}}\n`;
}

export function memberJson(m: V2Member): string {
  const list = (xs: readonly string[]): string => `[${xs.map(goString).join(',')}]`;
  return `{"id":${goString(m.id)},"name":${goString(m.name)},"peerURLs":${list(m.peerURLs)},"clientURLs":${list(m.clientURLs)}}`;
}

/** `{"message":…}` without newline (httptypes.HTTPError). */
export function messageBody(message: string): string {
  return `{"message":${goString(message)}}`;
}
