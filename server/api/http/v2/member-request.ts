/**
 * The body of `POST /v2/members` and `PUT /v2/members/<id>`: `{"peerURLs":[…]}`, checked
 * like etcd's MemberCreateRequest.UnmarshalJSON + types.NewURLs, with their error texts
 * (answered as 400 `{"message":…}`):
 * - JSON type errors: `json: cannot unmarshal <type> into Go struct field .peerURLs of type []string`;
 * - no URLs: `no valid URLs given`;
 * - per URL (trimmed, first failure wins): url.Parse errors (`parse "<u>": …`),
 *   `URL scheme must be http, https, unix, or unixs: <u>`,
 *   `URL address does not have the form "host:port": <u>`, `URL must not contain a path: <u>`.
 * The accepted URLs come back sorted. JSON syntax errors are reported with Go's text for
 * the common cases (empty body, bad first character); others with a shorter text.
 */

export type PeerUrlsBody = { readonly ok: true; readonly peerURLs: string[] } | { readonly ok: false; readonly message: string };

const STRUCT = 'struct { PeerURLs []string "json:\\"peerURLs\\"" }';

function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

export function parsePeerUrlsBody(text: string): PeerUrlsBody {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: jsonSyntaxMessage(text) };
  }
  if (json === null) return checkUrls([]);
  if (typeof json !== 'object' || Array.isArray(json)) return { ok: false, message: `json: cannot unmarshal ${goJsonType(json)} into Go value of type ${STRUCT}` };
  let raw: unknown = undefined;
  for (const [k, v] of Object.entries(json)) {
    if (k.toLowerCase() === 'peerurls') raw = v;
  }
  const exact = (json as Record<string, unknown>).peerURLs;
  if (exact !== undefined) raw = exact;
  if (raw === undefined || raw === null) return checkUrls([]);
  if (!Array.isArray(raw)) return { ok: false, message: `json: cannot unmarshal ${goJsonType(raw)} into Go struct field .peerURLs of type []string` };
  const urls: string[] = [];
  for (const item of raw) {
    if (item !== null && typeof item !== 'string') return { ok: false, message: `json: cannot unmarshal ${goJsonType(item)} into Go struct field .peerURLs of type string` };
    urls.push(item ?? '');
  }
  return checkUrls(urls);
}

function jsonSyntaxMessage(text: string): string {
  const first = text.trimStart()[0];
  if (first === undefined) return 'unexpected end of JSON input';
  if (!'{["-0123456789tfn'.includes(first)) return `invalid character '${first}' looking for beginning of value`;
  return 'invalid JSON body';
}

function checkUrls(urls: readonly string[]): PeerUrlsBody {
  if (urls.length === 0) return { ok: false, message: 'no valid URLs given' };
  const out: string[] = [];
  for (const raw of urls) {
    const u = raw.trim();
    const parsed = parseUrl(u);
    if (!parsed.ok) return { ok: false, message: `parse ${JSON.stringify(u)}: ${parsed.error}` };
    if (!['http', 'https', 'unix', 'unixs'].includes(parsed.scheme)) return { ok: false, message: `URL scheme must be http, https, unix, or unixs: ${u}` };
    if (!hasHostPort(parsed.host)) return { ok: false, message: `URL address does not have the form "host:port": ${u}` };
    if (parsed.path !== '') return { ok: false, message: `URL must not contain a path: ${u}` };
    out.push(parsed.scheme + u.slice(parsed.scheme.length));
  }
  return { ok: true, peerURLs: out.sort() };
}

type ParsedUrl = { ok: true; scheme: string; host: string; path: string } | { ok: false; error: string };

/** The parts of Go's url.Parse that NewURLs looks at. */
function parseUrl(u: string): ParsedUrl {
  let rest = u.split('#')[0] as string;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (rest.startsWith(':')) return { ok: false, error: 'missing protocol scheme' };
  const scheme = m ? (m[1] as string).toLowerCase() : '';
  rest = m ? rest.slice(m[0].length) : rest;
  rest = rest.split('?')[0] as string;
  if (!m) {
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) return { ok: false, error: 'first path segment in URL cannot contain colon' };
    return { ok: true, scheme, host: '', path: rest };
  }
  if (!rest.startsWith('//')) return { ok: true, scheme, host: '', path: '' };
  rest = rest.slice(2);
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  const close = host.startsWith('[') ? host.indexOf(']') : -1;
  const colon = host.lastIndexOf(':');
  const port = close >= 0 ? host.slice(close + 1) : colon >= 0 ? host.slice(colon) : '';
  if (port !== '' && !/^:[0-9]*$/.test(port)) return { ok: false, error: `invalid port ${JSON.stringify(port)} after host` };
  return { ok: true, scheme, host, path: slash < 0 ? '' : rest.slice(slash) };
}

/** Go's net.SplitHostPort succeeds. */
function hasHostPort(host: string): boolean {
  if (host.startsWith('[')) return /^\[[^\]]*\]:[^:]*$/.test(host);
  return host.split(':').length === 2;
}
