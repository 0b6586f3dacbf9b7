/**
 * The verified client certificate's Common Name, for request handlers (auth: with
 * `--client-cert-auth` and auth enabled, the CN is the user, as in etcd).
 *
 * Contract: a CN is returned only for a connection whose client certificate was verified
 * against the trusted CA during the handshake (the listener refuses the others when client
 * certificates are required); `undefined` on plaintext connections, without a certificate,
 * or with an empty CN. Callers decide whether `--client-cert-auth` is on.
 * gRPC connections served through the `:authority` relay (server/transport/README.md) carry
 * no TLS socket and so no CN.
 */
import type { IncomingMessage } from 'node:http';
import { TLSSocket, type DetailedPeerCertificate } from 'node:tls';

/** The slice of a grpc-js server call this reads (`ServerUnaryCall`, `ServerDuplexStream`, …). */
export interface CallWithAuthContext {
  getAuthContext?(): { readonly sslPeerCertificate?: { readonly subject?: { readonly CN?: string | string[] } } } | null;
}

function cnOf(subject: { readonly CN?: string | string[] } | undefined): string | undefined {
  const cn = Array.isArray(subject?.CN) ? subject.CN[0] : subject?.CN;
  return cn === undefined || cn === '' ? undefined : cn;
}

/** CN of the verified client certificate of a gRPC call. */
export function grpcClientCommonName(call: CallWithAuthContext): string | undefined {
  return cnOf(call.getAuthContext?.()?.sslPeerCertificate?.subject);
}

/** CN of the verified client certificate of an HTTP/1.1 request (gateway, /v2). */
export function httpClientCommonName(req: IncomingMessage): string | undefined {
  const socket = req.socket;
  if (!(socket instanceof TLSSocket) || !socket.authorized) return undefined;
  return cnOf(socket.getPeerCertificate().subject);
}

/**
 * Common Names of the verified client certificate chain of an HTTP/1.1 request, leaf first,
 * then each issuer up to the root (etcd's v2 auth looks every certificate of Go's verified
 * chains up as a user). Empty on plaintext or unverified connections.
 */
export function httpClientChainCommonNames(req: IncomingMessage): string[] {
  const socket = req.socket;
  if (!(socket instanceof TLSSocket) || !socket.authorized) return [];
  const names: string[] = [];
  const seen = new Set<string>();
  let cert: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (cert !== undefined && cert.raw !== undefined && !seen.has(cert.fingerprint256)) {
    seen.add(cert.fingerprint256);
    const cn = cnOf(cert.subject);
    if (cn !== undefined) names.push(cn);
    cert = cert.issuerCertificate;
  }
  return names;
}
