/**
 * Server-side TLS for sockets accepted by a plain `net.Server`: each socket is handed to an
 * internal `tls.Server` (never listening) right after the side's files were checked, so every
 * handshake runs with the material current at its accept (see tls-source.ts).
 *
 * Contract:
 * - `accept(raw)`: the TLS handshake runs on `raw`; `onSecure(socket)` gets the `TLSSocket` once
 *   it is established and its client certificate passed the policy; otherwise the socket is
 *   destroyed and `onRefused(reason)` says why (handshake error or timeout, no or unverified
 *   certificate when one is required, CN or hostname not allowed);
 * - a client certificate is required and verified against the trusted CA when
 *   `requireClientCert` (etcd: `--client-cert-auth` or a `--trusted-ca-file`);
 * - with a CRL, a connection whose certificate chain holds a serial the CRL names is refused
 *   after its handshake, as etcd's `checkCRL` (the list's dates and signature are not checked);
 * - `allowedCn` (exact CN) or `allowedHostname` (the certificate must be valid for that name)
 *   further restrict verified client certificates (`--peer-cert-allowed-cn`, …-hostname); such
 *   a certificate is refused inside the handshake with a bad_certificate alert, as etcd does
 *   (handshake-gate.ts: the port then speaks TLS 1.2 without session resumption), unless the
 *   material asks for TLS 1.3 only (then it is refused right after the handshake);
 * - with `checkClientSan` (peers) a client certificate naming IPs or DNS names must name the
 *   remote address (client-san.ts);
 * - ALPN offers `alpn` in order (a client without ALPN is still served);
 * - `close()` refuses later sockets and destroys those still in their handshake.
 */
import type { Socket } from 'node:net';
import { checkServerIdentity, createServer, type DetailedPeerCertificate, type PeerCertificate, type SecureContextOptions, type TLSSocket } from 'node:tls';
import { clientSanProblem, type Resolve } from './client-san.js';
import { serialKey } from './crl-serials.js';
import { gatedContextOptions } from './gated-context.js';
import { handshakeGate } from './handshake-gate.js';
import type { TlsSource } from './tls-source.js';

export interface TlsAcceptPolicy {
  readonly source: TlsSource;
  readonly requireClientCert: boolean;
  readonly allowedCn: string;
  readonly allowedHostname: string;
  readonly alpn: readonly string[];
  readonly handshakeTimeoutMs: number;
  /** Check a client certificate's SANs against the remote address (see client-san.ts). */
  readonly checkClientSan?: { readonly resolve: Resolve };
}

export interface TlsAcceptCallbacks {
  onSecure(socket: TLSSocket): void;
  onRefused(reason: string, remote: string | undefined): void;
}

export interface TlsAcceptor {
  accept(raw: Socket): void;
  close(): void;
}

export function createTlsAcceptor(policy: TlsAcceptPolicy, cb: TlsAcceptCallbacks): TlsAcceptor {
  const server = createServer({
    requestCert: policy.requireClientCert,
    rejectUnauthorized: policy.requireClientCert,
    ALPNProtocols: [...policy.alpn],
    handshakeTimeout: policy.handshakeTimeoutMs,
  });
  let applied = 0;
  /** The CRL's serials of the material last applied (etcd reads the file at each handshake). */
  let revoked: ReadonlySet<string> | undefined;
  let closed = false;
  /** Sockets in their handshake, by remote address and port (a TLSSocket reports its TCP socket's). */
  const pending = new Map<string, Socket>();
  const keyOf = (s: Socket): string => `${s.remoteAddress ?? ''}|${s.remotePort ?? ''}`;

  /** The SAN check (peers), then `onSecure`; `remote`: the TCP peer's address. */
  const admit = (socket: TLSSocket, cert: PeerCertificate, remote: string): void => {
    const san = policy.checkClientSan;
    if (san === undefined || cert.raw === undefined) {
      cb.onSecure(socket);
      return;
    }
    clientSanProblem(cert.subjectaltname, remote, san.resolve).then(
      (sanProblem) => {
        if (sanProblem === undefined && !socket.destroyed) cb.onSecure(socket);
        else if (sanProblem !== undefined) {
          socket.destroy();
          cb.onRefused(sanProblem, remote);
        }
      },
      (err: unknown) => {
        socket.destroy();
        cb.onRefused(`client SAN check failed: ${(err as Error).message}`, remote);
      },
    );
  };

  server.on('secureConnection', (socket: TLSSocket) => {
    pending.delete(keyOf(socket));
    const cert = socket.getPeerCertificate(revoked !== undefined);
    const problem = revokedProblem(cert, revoked) ?? (policy.requireClientCert ? certificateProblem(cert, policy) : undefined);
    if (problem !== undefined) {
      socket.destroy();
      cb.onRefused(problem, socket.remoteAddress);
      return;
    }
    admit(socket, cert, socket.remoteAddress ?? '');
  });
  server.on('tlsClientError', (err: Error, socket: TLSSocket) => {
    pending.delete(keyOf(socket));
    socket.destroy();
    cb.onRefused(`TLS handshake failed: ${err.message.trim()}`, socket.remoteAddress);
  });

  // With an allowed CN or hostname, the name is refused inside the handshake (handshake-gate.ts).
  const refusesInHandshake = policy.requireClientCert && (policy.allowedCn !== '' || policy.allowedHostname !== '');
  /**
   * One connection through a handshake gate, on a TLS server of its own, so that the server's
   * events are this connection's (a TLS socket over a stream has no address to tell them apart;
   * the server costs ≈ 1.3 ms, mostly its secure context).
   */
  const acceptGated = (raw: Socket, options: SecureContextOptions, crl: ReadonlySet<string> | undefined, key: string): void => {
    const remote = raw.remoteAddress ?? '';
    const gate = handshakeGate(raw);
    const one = createServer({ ...options, requestCert: true, rejectUnauthorized: true, ALPNProtocols: [...policy.alpn], handshakeTimeout: policy.handshakeTimeoutMs });
    one.on('secureConnection', (socket: TLSSocket) => {
      pending.delete(key);
      const cert = socket.getPeerCertificate(crl !== undefined);
      const revokedCert = revokedProblem(cert, crl);
      if (revokedCert !== undefined) {
        // As etcd's checkCRL: the handshake completes, then the connection is closed (no alert).
        gate.release();
        socket.end();
        socket.once('finish', () => socket.destroy());
        cb.onRefused(revokedCert, remote);
        return;
      }
      const problem = certificateProblem(cert, policy);
      if (problem !== undefined) {
        gate.refuse();
        socket.destroy();
        cb.onRefused(problem, remote);
        return;
      }
      gate.release();
      admit(socket, cert, remote);
    });
    one.on('tlsClientError', (err: Error, socket: TLSSocket) => {
      pending.delete(key);
      // After the client's certificate flight, a failure of Node's own checks (unknown CA): the
      // gate answers bad_certificate as it is destroyed.
      socket.destroy();
      cb.onRefused(`TLS handshake failed: ${err.message.trim()}`, remote);
    });
    one.emit('connection', gate.stream);
  };

  return {
    accept(raw) {
      if (closed) {
        raw.destroy();
        return;
      }
      const key = keyOf(raw);
      pending.set(key, raw);
      raw.on('error', () => undefined);
      raw.once('close', () => {
        if (pending.get(key) === raw) pending.delete(key);
      });
      policy.source.current().then(
        (material) => {
          if (closed || raw.destroyed) return;
          const gated = refusesInHandshake ? gatedContextOptions(material.options) : undefined;
          if (gated !== undefined) {
            acceptGated(raw, gated, material.revoked, key);
            return;
          }
          if (material.generation !== applied) {
            server.setSecureContext(material.options);
            applied = material.generation;
            revoked = material.revoked;
          }
          server.emit('connection', raw);
        },
        (err: unknown) => {
          pending.delete(key);
          raw.destroy();
          cb.onRefused(`no TLS material: ${(err as Error).message}`, raw.remoteAddress);
        },
      );
    },
    close() {
      closed = true;
      for (const raw of pending.values()) raw.destroy();
      pending.clear();
    },
  };
}

/** etcd's `checkCRL`: any certificate of the chain whose serial the CRL names refuses the connection. */
function revokedProblem(cert: DetailedPeerCertificate | PeerCertificate, revoked: ReadonlySet<string> | undefined): string | undefined {
  if (revoked === undefined || revoked.size === 0) return undefined;
  const seen = new Set<unknown>();
  for (let c: PeerCertificate | undefined = cert; c?.serialNumber !== undefined && !seen.has(c); ) {
    seen.add(c);
    const key = serialKey(c.serialNumber);
    if (revoked.has(key)) return `transport: certificate serial ${key.toLowerCase()} revoked`;
    c = 'issuerCertificate' in c ? (c as DetailedPeerCertificate).issuerCertificate : undefined;
  }
  return undefined;
}

function certificateProblem(cert: PeerCertificate, policy: TlsAcceptPolicy): string | undefined {
  if (policy.allowedCn !== '' && cert.subject?.CN !== policy.allowedCn) {
    return `client certificate authentication failed: CN ${JSON.stringify(cert.subject?.CN ?? '')} is not ${JSON.stringify(policy.allowedCn)}`;
  }
  if (policy.allowedHostname !== '' && checkServerIdentity(policy.allowedHostname, cert) !== undefined) {
    return `client certificate authentication failed: not valid for ${policy.allowedHostname}`;
  }
  return undefined;
}
