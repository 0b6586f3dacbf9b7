/**
 * Header translation for the HTTP/2 relay (h2-relay.ts): a request's decoded fields into the
 * headers object of Node's `ClientHttp2Session.request`, and the raw header list Node reports
 * for a response or its trailers back into fields to encode for the client.
 *
 * Request contract:
 * - `:method` and `:path` are kept; `:scheme` is always `http` (the in-process hop is plaintext);
 *   `:authority` is kept when it is a plain `host[:port]`, else `localhost` (Node's HTTP/2 layer
 *   refuses e.g. `http://host:port`, which some clients send);
 * - any other pseudo-header, a missing `:method` or `:path`, or a name that is not a lower-case
 *   HTTP token makes the request 'malformed' (RFC 9113 §8.2: the stream is reset with
 *   PROTOCOL_ERROR). Names are checked here because Node destroys the whole session, not just the
 *   stream, on a bad name;
 * - every other field is copied in order; a repeated name becomes an array; fields the client
 *   sent as "never indexed" are listed under `http2.sensitiveHeaders` so they stay so.
 *
 * Response contract: fields in the order received (`:status` first, as HTTP/2 requires), repeated
 * names kept as separate fields, "never indexed" kept.
 */
import { sensitiveHeaders, type OutgoingHttpHeaders } from 'node:http2';
import type { HeaderField } from '../../transport/header-block-codec.js';

export type RelayRequest =
  | { readonly kind: 'ok'; readonly headers: OutgoingHttpHeaders }
  | { readonly kind: 'malformed'; readonly reason: string };

/** A lower-case HTTP token (RFC 9110 §5.6.2). */
const HEADER_NAME = /^[a-z0-9!#$%&'*+\-.^_`|~]+$/;
/** `host[:port]`: a registered name, IPv4 or bracketed IPv6 address, and an optional port. */
const PLAIN_AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]{1,5})?$/;

export function relayRequest(fields: readonly HeaderField[]): RelayRequest {
  const headers: Record<string, string | string[]> = {};
  const sensitive: string[] = [];
  let method: string | undefined;
  let path: string | undefined;
  let authority = 'localhost';
  for (const f of fields) {
    if (f.name.startsWith(':')) {
      if (f.name === ':method') method = f.value;
      else if (f.name === ':path') path = f.value;
      else if (f.name === ':authority') authority = PLAIN_AUTHORITY.test(f.value) ? f.value : 'localhost';
      else if (f.name !== ':scheme') return { kind: 'malformed', reason: `pseudo-header ${f.name} in a request` };
      continue;
    }
    if (!HEADER_NAME.test(f.name)) return { kind: 'malformed', reason: `header name ${JSON.stringify(f.name)}` };
    const seen = headers[f.name];
    if (seen === undefined) headers[f.name] = f.value;
    else if (Array.isArray(seen)) seen.push(f.value);
    else headers[f.name] = [seen, f.value];
    if (f.neverIndex && !sensitive.includes(f.name)) sensitive.push(f.name);
  }
  if (method === undefined || path === undefined) return { kind: 'malformed', reason: 'no :method or :path' };
  const out: OutgoingHttpHeaders = { ':method': method, ':path': path, ':scheme': 'http', ':authority': authority, ...headers };
  if (sensitive.length > 0) (out as Record<symbol, unknown>)[sensitiveHeaders] = sensitive;
  return { kind: 'ok', headers: out };
}

/**
 * `raw` (Node's raw header list: name, value, name, value, ...) as fields; `sensitive`: the names
 * Node reported as "never indexed" (`headers[http2.sensitiveHeaders]`).
 */
export function relayedFields(raw: readonly string[], sensitive: readonly string[] | undefined): HeaderField[] {
  const fields: HeaderField[] = [];
  for (let at = 0; at + 1 < raw.length; at += 2) {
    const name = raw[at]!;
    fields.push({ name, value: raw[at + 1]!, neverIndex: sensitive?.includes(name) ?? false });
  }
  return fields;
}
