/**
 * URL lists as etcd reads them (`types.NewURLs` + `UniqueURLs`): comma-separated, each trimmed,
 * scheme http/https/unix/unixs, authority of the form `host:port`, no path; the result is
 * deduplicated and sorted by text. Texts are kept as given (not re-serialised).
 */

export type UrlListResult = { readonly ok: true; readonly urls: readonly string[] } | { readonly ok: false; readonly reason: string };

const SCHEMES = ['http', 'https', 'unix', 'unixs'];
const TCP_SCHEMES = ['http', 'https'];
/** `host:port` or `[ipv6]:port`. */
const HOST_PORT = /^(\[[0-9A-Fa-f:.]+(?:%[^\]]+)?\]|[^:[\]]*):([0-9]+)$/;

export interface UrlRules {
  /** Listener URL: host must be an IP or `localhost` (http, https); `unixs` is refused (not served). */
  readonly bind: boolean;
}

/** Checks one URL text; returns the failure reason or undefined. */
export function checkUrl(text: string, rules: UrlRules): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(text);
  if (m === null) return `URL scheme must be http, https, unix, or unixs: ${text}`;
  const [, rawScheme = '', authority = '', tail = ''] = m;
  const scheme = rawScheme.toLowerCase();
  if (!SCHEMES.includes(scheme)) return `URL scheme must be http, https, unix, or unixs: ${text}`;
  const hostPort = HOST_PORT.exec(authority);
  if (hostPort === null || authority.includes('@')) return `URL address does not have the form "host:port": ${text}`;
  if (tail !== '') return `URL must not contain a path: ${text}`;
  if (rules.bind) {
    if (scheme === 'unixs') return `TLS over unix sockets is not supported by kvstore, use https or unix instead: ${text}`;
    const host = (hostPort[1] ?? '').replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    if (TCP_SCHEMES.includes(scheme) && host !== 'localhost' && !isIp(host)) return `expected IP in URL for binding (${text})`;
  }
  return undefined;
}

/** Parses a comma-separated URL list; '' gives an empty list. */
export function parseUrlList(text: string, rules: UrlRules): UrlListResult {
  if (text.trim() === '') return { ok: true, urls: [] };
  const seen = new Set<string>();
  for (const part of text.split(',')) {
    const url = part.trim();
    const reason = checkUrl(url, rules);
    if (reason !== undefined) return { ok: false, reason };
    seen.add(url);
  }
  return { ok: true, urls: [...seen].sort() };
}

function isIp(host: string): boolean {
  if (/^(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}$/.test(host)) return true;
  return host.includes(':') && /^[0-9A-Fa-f:.]+$/.test(host);
}
