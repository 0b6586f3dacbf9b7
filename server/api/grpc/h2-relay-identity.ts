/**
 * Makes grpc-js see the CLIENT's socket behind a relayed (in-process) HTTP/2 connection, so that
 * `call.getPeer()` and `call.getAuthContext()` answer as if grpc-js had the client socket itself.
 *
 * What grpc-js 1.14 reads (server-interceptors.js, server.js): `stream.session.socket` and, on
 * it, `remoteAddress`/`remotePort`/`localAddress`/`localPort` (getPeer, getConnectionInfo),
 * `instanceof tls.TLSSocket`, `authorized` and `getPeerCertificate()` (getAuthContext). On an
 * injected connection without a native handle, Node wraps the stream in an internal socket that
 * has no address and is never a TLSSocket, and `session.socket` is a Proxy over that wrapper.
 *
 * How: right after `injectConnection` (which builds the server session synchronously), the
 * session is found on the injected stream — Node records it there as the guard against binding
 * one stream twice (`socket[kBoundSession] = session`; on Node 20.20 that internal symbol is not
 * exported where http2 imports it, so the key is the STRING 'undefined'). It is therefore found
 * by shape (an own property, symbol- or string-keyed, holding a server `Http2Session`), never
 * by key. Its `socket` accessor is then shadowed by an own property: a read-only view of the
 * client socket built like Node's own socket proxy (reads forwarded, functions bound to the
 * client socket, `setTimeout`/`ref`/`unref` on the session, the stream-manipulating methods
 * refused). The view's prototype is the client socket's, so a TLS client passes
 * `instanceof TLSSocket` and `getPeerCertificate()` is the client's certificate.
 *
 * Limits: grpc-js's own session setup (its trace line and channelz entry) runs inside
 * `injectConnection`, before the view exists, and names the peer `undefined`. If a Node release
 * stops recording the session on the stream, `lendClientSocket` returns false and calls report
 * an unknown peer and no certificate (fails closed); the relay's tests catch that.
 */
import { EventEmitter } from 'node:events';
import { constants } from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Methods Node's own `session.socket` proxy refuses (they would break the HTTP/2 framing). */
const REFUSED = new Set<string | symbol>(['destroy', 'emit', 'end', 'pause', 'read', 'resume', 'write', 'setEncoding', 'setKeepAlive', 'setNoDelay']);
/** Methods Node's proxy applies to the session rather than the socket. */
const ON_SESSION = new Set<string | symbol>(['setTimeout', 'ref', 'unref']);

interface ServerSessionShape extends EventEmitter {
  readonly type: number;
  readonly socket: unknown;
}

/** Shows `client` as the socket of the server session built on `injected`; false if not found. */
export function lendClientSocket(injected: Duplex, client: Socket): boolean {
  const session = boundServerSession(injected);
  if (session === undefined) return false;
  Object.defineProperty(session, 'socket', { value: clientSocketView(client, session), configurable: true, enumerable: false, writable: false });
  return true;
}

function boundServerSession(injected: Duplex): ServerSessionShape | undefined {
  const holder = injected as unknown as Record<string | symbol, unknown>;
  for (const key of Reflect.ownKeys(injected)) {
    const value = holder[key];
    if (value instanceof EventEmitter && 'socket' in value && (value as Partial<ServerSessionShape>).type === constants.NGHTTP2_SESSION_SERVER) {
      return value as ServerSessionShape;
    }
  }
  return undefined;
}

function clientSocketView(client: Socket, session: ServerSessionShape): Socket {
  const onSession = session as unknown as Record<string | symbol, unknown>;
  return new Proxy(client, {
    get(target, prop) {
      if (REFUSED.has(prop)) throw new Error(`${String(prop)} is not allowed on the HTTP/2 session's socket`);
      if (ON_SESSION.has(prop)) return (onSession[prop] as (...args: unknown[]) => unknown).bind(session);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
