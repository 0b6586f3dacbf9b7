/**
 * An HTTP/1.1 request to a peer URL (`http:`, `https:`, or `unix:` for a unix socket), over TLS when the URL is `https:`: the scheme picks
 * `node:http` or `node:https`; for https the caller's `PeerDialTls` gives the connection options
 * (the peer certificate as the client certificate, the trusted CA; read at each request so a
 * rotated certificate reaches the next dial). The remote's certificate is verified against the
 * trusted CA and the URL's host unless the options say otherwise (auto TLS).
 */
import { request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ConnectionOptions } from 'node:tls';

/** Connection options for dialling https peer URLs; undefined when the member has no peer TLS. */
export type PeerDialTls = (() => ConnectionOptions) | undefined;

/**
 * Host, port and whether TLS is used, of a peer URL, or an error text. A `unix://host:port` URL
 * is dialled on the unix socket `host:port` (`path`), in plain HTTP, as etcd does.
 */
export function peerAddress(url: string): { host: string; port: number; tls: boolean; path?: string } | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch (e) {
    return `invalid peer URL ${url} (${(e as Error).message})`;
  }
  if (u.protocol === 'unix:') return u.host === '' ? `unix peer URL ${url} must name a socket as host:port` : { host: 'localhost', port: 0, tls: false, path: u.host };
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `unsupported peer URL scheme ${u.protocol} in ${url}`;
  const tls = u.protocol === 'https:';
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return { host, port: u.port === '' ? (tls ? 443 : 80) : Number(u.port), tls };
}

/** Starts a request to `url` (host and port from it; `options.path` as given); an error text for a bad URL. */
export function peerRequest(url: string, options: RequestOptions, tls: PeerDialTls): ClientRequest | string {
  const address = peerAddress(url);
  if (typeof address === 'string') return address;
  const base: RequestOptions =
    address.path !== undefined ? { ...options, socketPath: address.path, host: address.host } : { ...options, host: address.host, port: address.port };
  if (!address.tls) return httpRequest(base);
  let extra: ConnectionOptions;
  try {
    extra = tls?.() ?? {};
  } catch (e) {
    return `no peer TLS material: ${(e as Error).message}`;
  }
  return httpsRequest({ ...base, ...extra } as RequestOptions);
}
