/**
 * Whether a request's header list, or its trailers, is well-formed HTTP/2 (RFC 9113 §8.2,
 * §8.3.1, §8.1.1): what a server must check before a request reaches the layer above. A
 * malformed list is a stream error PROTOCOL_ERROR (the connection's to send).
 *
 * Contract: pure; looks only at the decoded fields (lower-case names expected: an upper-case
 * letter is itself a fault). Checked:
 * - names: non-empty; a regular name is made of lower-case token characters (RFC 9110 §5.6.2:
 *   `!#$%&'*+-.^_`|~`, digits, a–z) — stricter than §8.2.1, which only forbids controls, SP,
 *   upper case, DEL, non-ASCII and a colon; a pseudo-header is `:` then such a name;
 * - values: no NUL, CR or LF anywhere, no leading or trailing SP / HTAB (§8.2.1);
 * - connection-specific fields (`connection`, `keep-alive`, `proxy-connection`,
 *   `transfer-encoding`, `upgrade`) are refused, `te` only as `trailers` (§8.2.2);
 * - pseudo-headers: only `:method`, `:scheme`, `:path`, `:authority`, each at most once, all
 *   before the first regular field; `:method`, `:scheme` and a non-empty `:path` present, except
 *   for CONNECT, which has `:method` and `:authority` and neither `:scheme` nor `:path` (§8.5);
 *   `:protocol` (RFC 8441) is unknown: we never send SETTINGS_ENABLE_CONNECT_PROTOCOL;
 * - `content-length`: decimal digits; repeated only with the same value (RFC 9110 §8.6);
 * - trailers: no pseudo-header at all, and the field rules above.
 * Not checked (a SHOULD): that `host` names the same entity as `:authority`.
 */
import type { HeaderField } from '../header-block-codec.js';

export type RequestCheck =
  | {
      readonly kind: 'ok';
      readonly method: string;
      /** Undefined for CONNECT. */
      readonly path: string | undefined;
      /** The `content-length` the request announces, if any. */
      readonly contentLength: number | undefined;
    }
  | { readonly kind: 'malformed'; readonly reason: string };

export type TrailerCheck = { readonly kind: 'ok' } | { readonly kind: 'malformed'; readonly reason: string };

const REQUEST_PSEUDO: ReadonlySet<string> = new Set([':method', ':scheme', ':path', ':authority']);
const CONNECTION_SPECIFIC: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** Lower-case token characters (RFC 9110 §5.6.2 tchar, without A–Z), by char code. */
const NAME_CHAR: readonly boolean[] = (() => {
  const ok = new Array<boolean>(128).fill(false);
  for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyz") ok[c.charCodeAt(0)] = true;
  return ok;
})();

function nameFault(name: string, from: number): string | undefined {
  if (name.length <= from) return 'an empty field name';
  for (let i = from; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return `upper case in field name ${JSON.stringify(name)}`;
    if (c >= 128 || !NAME_CHAR[c]) return `character 0x${c.toString(16)} in field name ${JSON.stringify(name)}`;
  }
  return undefined;
}

function valueFault(name: string, value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0 || c === 0x0a || c === 0x0d) return `NUL, CR or LF in the value of ${name}`;
  }
  if (value.length > 0) {
    const first = value.charCodeAt(0);
    const last = value.charCodeAt(value.length - 1);
    if (first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09) return `leading or trailing whitespace in the value of ${name}`;
  }
  return undefined;
}

/** The faults every field section shares: name, value, connection-specific fields. */
function regularFault(f: HeaderField): string | undefined {
  const bad = nameFault(f.name, 0) ?? valueFault(f.name, f.value);
  if (bad !== undefined) return bad;
  if (CONNECTION_SPECIFIC.has(f.name)) return `connection-specific field ${f.name}`;
  if (f.name === 'te' && f.value.toLowerCase() !== 'trailers') return 'te other than "trailers"';
  return undefined;
}

function contentLengthOf(values: readonly string[]): number | undefined | 'bad' {
  let length: number | undefined;
  for (const v of values) {
    if (!/^[0-9]{1,15}$/.test(v)) return 'bad';
    const n = Number(v);
    if (length !== undefined && length !== n) return 'bad';
    length = n;
  }
  return length;
}

export function checkRequestFields(fields: readonly HeaderField[]): RequestCheck {
  const pseudo = new Map<string, string>();
  const lengths: string[] = [];
  let regularSeen = false;
  for (const f of fields) {
    if (f.name.startsWith(':')) {
      if (regularSeen) return { kind: 'malformed', reason: `pseudo-header ${f.name} after a regular field` };
      if (!REQUEST_PSEUDO.has(f.name)) return { kind: 'malformed', reason: `pseudo-header ${JSON.stringify(f.name)} in a request` };
      if (pseudo.has(f.name)) return { kind: 'malformed', reason: `${f.name} twice` };
      const bad = valueFault(f.name, f.value);
      if (bad !== undefined) return { kind: 'malformed', reason: bad };
      pseudo.set(f.name, f.value);
      continue;
    }
    regularSeen = true;
    const bad = regularFault(f);
    if (bad !== undefined) return { kind: 'malformed', reason: bad };
    if (f.name === 'content-length') lengths.push(f.value);
  }
  const method = pseudo.get(':method');
  if (method === undefined || method === '') return { kind: 'malformed', reason: 'no :method' };
  const contentLength = contentLengthOf(lengths);
  if (contentLength === 'bad') return { kind: 'malformed', reason: 'content-length not one decimal number' };
  if (method === 'CONNECT') {
    if (pseudo.has(':scheme') || pseudo.has(':path')) return { kind: 'malformed', reason: 'CONNECT with :scheme or :path' };
    if (!pseudo.get(':authority')) return { kind: 'malformed', reason: 'CONNECT without :authority' };
    return { kind: 'ok', method, path: undefined, contentLength };
  }
  if (!pseudo.get(':scheme')) return { kind: 'malformed', reason: 'no :scheme' };
  const path = pseudo.get(':path');
  if (path === undefined) return { kind: 'malformed', reason: 'no :path' };
  if (path === '') return { kind: 'malformed', reason: 'an empty :path' };
  return { kind: 'ok', method, path, contentLength };
}

export function checkTrailerFields(fields: readonly HeaderField[]): TrailerCheck {
  for (const f of fields) {
    if (f.name.startsWith(':')) return { kind: 'malformed', reason: `pseudo-header ${f.name} in trailers` };
    const bad = regularFault(f);
    if (bad !== undefined) return { kind: 'malformed', reason: bad };
  }
  return { kind: 'ok' };
}
