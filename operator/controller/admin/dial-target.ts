/**
 * A member client URL as the operator dials it, with the TLS server name to expect when the URL
 * was mapped to another address (`--member-address-map`, port-forwards): the mapped URL then
 * carries the advertised host in its fragment, `https://127.0.0.1:32379#tls-server-name=demo-0.demo-peer.ns.svc`,
 * so the member's certificate (naming the advertised DNS name) still verifies. Fragments never
 * reach the wire; a URL without one is dialled and verified as it is.
 */
const KEY = 'tls-server-name=';

export interface DialTarget {
  /** The URL to dial, without the fragment. */
  readonly url: string;
  /** The name the server certificate must carry (and the SNI sent), when it is not the URL's host. */
  readonly serverName?: string;
}

/** `url` with `serverName` recorded in its fragment (replacing any fragment it had). */
export function withServerName(url: string, serverName: string): string {
  const at = url.indexOf('#');
  return `${at < 0 ? url : url.slice(0, at)}#${KEY}${serverName}`;
}

export function dialTarget(url: string): DialTarget {
  const at = url.indexOf('#');
  if (at < 0) return { url };
  const fragment = url.slice(at + 1);
  const base = url.slice(0, at);
  return fragment.startsWith(KEY) && fragment.length > KEY.length ? { url: base, serverName: fragment.slice(KEY.length) } : { url: base };
}
