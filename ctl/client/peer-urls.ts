/**
 * Client-side validation of member peer URLs, as etcd's client does before MemberAdd and
 * MemberUpdate (so a bad URL never reaches the server): scheme http, https, unix or unixs,
 * an address of the form host:port, no path. Returns the error text, or undefined.
 */
const SCHEMES = ['http', 'https', 'unix', 'unixs'];

function hasHostPort(host: string): boolean {
  if (host.startsWith('[')) return /^\[[^\]]*\]:[^:]*$/.test(host);
  const i = host.lastIndexOf(':');
  return i >= 0 && host.indexOf(':') === i;
}

export function peerUrlError(urls: readonly string[]): string | undefined {
  for (const u of urls) {
    const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/.exec(u);
    if (m === null || !SCHEMES.includes(m[1].toLowerCase())) return `URL scheme must be http, https, unix, or unixs: ${u}`;
    const rest = m[2];
    const auth = rest.startsWith('//') ? rest.slice(2) : '';
    const hostEnd = auth.search(/[/?#]/);
    const host = hostEnd < 0 ? auth : auth.slice(0, hostEnd);
    if (!hasHostPort(host.replace(/^.*@/, ''))) return `URL address does not have the form "host:port": ${u}`;
    const path = rest.startsWith('//') ? (hostEnd < 0 ? '' : auth.slice(hostEnd).replace(/[?#].*$/, '')) : rest;
    if (path !== '') return `URL must not contain a path: ${u}`;
  }
  return undefined;
}
