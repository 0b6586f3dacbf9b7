/**
 * Which HTTP/2 `:authority` values Node's HTTP/2 layer (nghttp2) accepts, and how a refused one
 * is turned into an accepted one.
 *
 * nghttp2 answers a request whose `:authority` holds a character outside RFC 3986's authority
 * set with RST_STREAM PROTOCOL_ERROR. Go gRPC clients dialing an etcd client URL (etcdctl
 * `--cluster`) send the URL itself, e.g. `http://127.0.0.1:2379`; the real etcd accepts that.
 *
 * Contract: pure. `acceptedAuthority(v)` is true for the values nghttp2 lets through (the empty
 * value included). `repairAuthority(v)` drops a leading `scheme://` and anything from the first
 * `/`, `?` or `#` on (`http://127.0.0.1:2379/x` → `127.0.0.1:2379`); when what remains is still
 * refused it answers undefined (the field is then better left out).
 */

const ACCEPTED = /^[A-Za-z0-9\-._~!$&'()*+,;=:@[\]%]*$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

export function acceptedAuthority(value: string): boolean {
  return ACCEPTED.test(value);
}

export function repairAuthority(value: string): string | undefined {
  const rest = value.replace(SCHEME, '');
  const cut = rest.search(/[/?#]/);
  const host = cut === -1 ? rest : rest.slice(0, cut);
  return acceptedAuthority(host) ? host : undefined;
}
