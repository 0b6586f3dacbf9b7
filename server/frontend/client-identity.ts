/**
 * Who is at the other end of a client connection, as the code serving its requests asks
 * (peer address for logs and `getPeer()`, the verified certificate for client-certificate auth),
 * carried from the front-end thread that holds the socket to the core thread that serves it.
 *
 * - `identityOf(socket)` (front end): plain data, structured-clone safe;
 * - `identitySocket(identity)` (core): an object that answers like the client socket for those
 *   reads: its prototype is `tls.TLSSocket`'s for a TLS client (so `instanceof TLSSocket` holds
 *   and `getPeerCertificate()` is the client's) or `net.Socket`'s, with the values as own
 *   properties. It has no handle: anything that would read or write it is not asked of it.
 */
import { Socket } from 'node:net';
import { TLSSocket, type PeerCertificate } from 'node:tls';

export interface ClientIdentity {
  readonly remoteAddress: string | undefined;
  readonly remotePort: number | undefined;
  readonly remoteFamily: string | undefined;
  readonly localAddress: string | undefined;
  readonly localPort: number | undefined;
  readonly tls?: {
    readonly authorized: boolean;
    readonly authorizationError: string | undefined;
    readonly alpnProtocol: string | false;
    /** `getPeerCertificate()`: `{}` when the client sent none. */
    readonly peerCertificate: PeerCertificate | Record<string, never>;
  };
}

export function identityOf(socket: Socket): ClientIdentity {
  const base = {
    remoteAddress: socket.remoteAddress,
    remotePort: socket.remotePort,
    remoteFamily: socket.remoteFamily,
    localAddress: socket.localAddress,
    localPort: socket.localPort,
  };
  if (!(socket instanceof TLSSocket)) return base;
  const error = socket.authorizationError as Error | string | null | undefined;
  return {
    ...base,
    tls: {
      authorized: socket.authorized,
      authorizationError: error === null || error === undefined ? undefined : String(error),
      alpnProtocol: socket.alpnProtocol ?? false,
      peerCertificate: socket.getPeerCertificate(),
    },
  };
}

/** The structured clone turned the certificate's Buffers into Uint8Arrays: back to Buffers. */
function certificateOf(cert: PeerCertificate | Record<string, never>): PeerCertificate | Record<string, never> {
  const c = cert as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { ...c };
  for (const key of ['raw', 'pubkey']) {
    const v = c[key];
    if (v instanceof Uint8Array && !Buffer.isBuffer(v)) out[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  return out as unknown as PeerCertificate;
}

/** The identity's properties, for an object that stands for the client's socket. */
export function identityProperties(identity: ClientIdentity): PropertyDescriptorMap {
  const value = (v: unknown): PropertyDescriptor => ({ value: v, enumerable: true, configurable: true, writable: true });
  const props: PropertyDescriptorMap = {
    remoteAddress: value(identity.remoteAddress),
    remotePort: value(identity.remotePort),
    remoteFamily: value(identity.remoteFamily),
    localAddress: value(identity.localAddress),
    localPort: value(identity.localPort),
  };
  const tls = identity.tls;
  if (tls !== undefined) {
    const cert = certificateOf(tls.peerCertificate);
    props.encrypted = value(true);
    props.authorized = value(tls.authorized);
    props.authorizationError = value(tls.authorizationError);
    props.alpnProtocol = value(tls.alpnProtocol);
    props.getPeerCertificate = value(() => cert);
  }
  return props;
}

export function identitySocket(identity: ClientIdentity): Socket {
  const proto = identity.tls === undefined ? Socket.prototype : TLSSocket.prototype;
  return Object.create(proto, identityProperties(identity)) as Socket;
}
