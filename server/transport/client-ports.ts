/**
 * Pure: the client ports to open for `--listen-client-urls`. etcd opens one listener per
 * host:port, and a host:port listed with both `http://` and `https://` serves both on that one
 * listener (a TLS ClientHello goes to TLS, anything else is served as plaintext).
 *
 * Contract: one entry per distinct host:port, in the order of first appearance; `url` is the
 * first URL given for it; `plain` / `secure` say which schemes were listed. Port 0 ("any free
 * port") is never shared: each such URL gets its own entry. Other schemes are kept as their
 * own entry (the listener refuses them, naming the URL).
 */

export interface ClientPort {
  /** The first URL listed for this host:port. */
  readonly url: URL;
  /** `http://` listed for it. */
  readonly plain: boolean;
  /** `https://` listed for it. */
  readonly secure: boolean;
}

export function clientPorts(urls: readonly URL[]): ClientPort[] {
  const ports: { url: URL; plain: boolean; secure: boolean }[] = [];
  const byHost = new Map<string, { url: URL; plain: boolean; secure: boolean }>();
  for (const url of urls) {
    const plain = url.protocol === 'http:';
    const secure = url.protocol === 'https:';
    const shareable = (plain || secure) && url.port !== '' && url.port !== '0';
    const key = `${url.hostname}:${url.port}`;
    const known = shareable ? byHost.get(key) : undefined;
    if (known !== undefined) {
      known.plain ||= plain;
      known.secure ||= secure;
      continue;
    }
    const port = { url, plain, secure };
    ports.push(port);
    if (shareable) byHost.set(key, port);
  }
  return ports;
}
