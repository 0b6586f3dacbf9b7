/**
 * One client port for gRPC and HTTP/1.1 (plaintext or TLS), like etcd's connection multiplexer.
 *
 * Every accepted TCP connection is sniffed (sniff-socket.ts): a connection that opens with the
 * HTTP/2 preface (gRPC clients speak h2c with prior knowledge) is served on our own HTTP/2
 * framing (h2/h2-connection.ts, its streams handed to the gRPC layer's `H2Serving`); a request
 * line goes to an internal HTTP/1.1 server that calls `httpHandler` (e.g. a koa app's
 * `callback()`); anything else is closed without an answer.
 *
 * An HTTP/2 connection is read a little further first (h2-opening-socket.ts), up to its first
 * request, whose content type tells (over TLS) whether the connection is gRPC. Our framing takes
 * any `:authority` (etcdctl `--cluster` sends `http://host:port`).
 *
 * An `https:` URL runs the TLS handshake first (server/tls/tls-acceptor.ts: the certificate files
 * are checked at every accept, client certificates required and verified when configured), then
 * routes by ALPN: `h2` goes to the HTTP/2 stage above, `http/1.1` to
 * the HTTP/1.1 server, and a client that negotiated no protocol is sniffed like a plaintext one.
 * A host:port listed with both schemes (client-ports.ts) is one listener: a connection whose
 * first byte opens a TLS record runs the handshake, any other is served as plaintext.
 *
 * Contract:
 * - `http:` URLs, and `https:` URLs when `options.tls` is given, with an explicit port (0 = any
 *   free port), or a `ClientPort` serving both on one port; `unix://` is not served;
 * - one `H2Serving` may serve several listeners;
 * - every h2c connection goes to gRPC (HTTP/2 clients of the JSON gateway are not served on a
 *   plaintext port);
 * - `close()` stops accepting, drops sockets still being sniffed, asks gRPC sessions to drain
 *   (GOAWAY), closes idle HTTP connections and busy ones after their response; after
 *   `closeGraceMs` everything left is destroyed. It resolves when every socket is gone.
 */
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { createTlsAcceptor, type TlsAcceptor } from '../tls/tls-acceptor.js';
import type { TlsSource } from '../tls/tls-source.js';
import type { ConnectionRoutes } from './connection-routes.js';
import type { H2Serving } from './h2/h2-serving.js';
import { awaitH2Opening } from './h2-opening-socket.js';
import { inProcessRoutes, type HttpHandler } from './in-process-routes.js';
import type { ClientPort } from './client-ports.js';
import { Protocol } from './protocol-sniff.js';
import { sniffSocket, type SniffedProtocol } from './sniff-socket.js';
import { tlsOrPlain } from './tls-or-plain.js';

export type { HttpHandler } from './in-process-routes.js';

export interface ClientListenerOptions {
  /**
   * Connections accepted before this resolves are held (not read, not answered) and served once
   * it does, as etcd holds its client connections until the member is ready: a client that
   * connects early waits instead of being refused. Absent: served at once.
   */
  readonly hold?: Promise<void>;
  /** A connection that sends nothing decisive within this time is dropped. Default 10 s. */
  readonly sniffTimeoutMs?: number;
  /** How long `close()` lets in-flight requests and streams finish. Default 2 s. */
  readonly closeGraceMs?: number;
  /**
   * How long an HTTP/2 client may take, after its preface, to send its first request before the
   * connection is handed to gRPC anyway. Default 1 s.
   */
  readonly h2OpeningTimeoutMs?: number;
  /** HTTP/1.1 keep-alive idle timeout. Default 5 s (Node's default). */
  readonly keepAliveTimeoutMs?: number;
  /** An HTTP/1.1 connection must complete its first request head within this time. Default 60 s. */
  readonly headersTimeoutMs?: number;
  /** TLS for `https:` URLs (required for them). */
  readonly tls?: ClientTls;
}

/** The client side's TLS: its material and whether client certificates are required. */
export interface ClientTls {
  readonly source: TlsSource;
  /** `--client-cert-auth` or a `--trusted-ca-file` (etcd requires a verified certificate then). */
  readonly requireClientCert: boolean;
}

/** ALPN offered on TLS client ports, in preference order. */
const ALPN = ['h2', 'http/1.1'];

export interface ClientListener {
  readonly url: URL;
  readonly address: AddressInfo;
  close(): Promise<void>;
}

const DEFAULT_SNIFF_TIMEOUT_MS = 10_000;
const DEFAULT_CLOSE_GRACE_MS = 2_000;
const DEFAULT_H2_OPENING_TIMEOUT_MS = 1_000;
/** Bytes an HTTP/2 client may send before its first request is complete (then: decide anyway). */
const H2_OPENING_MAX_BYTES = 64 * 1024;

/** Where to listen for `url`; throws on URLs this listener cannot serve (a configuration error). */
export function listenAddress(url: URL, tls = false): { host: string; port: number } {
  if (url.protocol !== 'http:' && !(tls && url.protocol === 'https:')) throw new Error(`unsupported client URL scheme ${url.protocol} in ${url.href}`);
  if (url.port === '') throw new Error(`client URL ${url.href} must have a port`);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: Number(url.port) };
}

export async function listenClient(
  url: URL | ClientPort,
  h2: H2Serving,
  httpHandler: HttpHandler,
  logger: Logger,
  options: ClientListenerOptions = {},
): Promise<ClientListener> {
  const log = logger.child({ component: 'client-listener', url: (url instanceof URL ? url : url.url).href });
  const routes = inProcessRoutes(h2, httpHandler, log, options);
  return listenClientRouted(url, routes, logger, options);
}

/** The client port with connections sent to `routes` (this thread's, or a front end's forwarding ones). */
export async function listenClientRouted(
  at: URL | ClientPort,
  routes: ConnectionRoutes,
  logger: Logger,
  options: ClientListenerOptions = {},
): Promise<ClientListener> {
  const { url, plain, secure } = at instanceof URL ? { url: at, plain: at.protocol === 'http:', secure: at.protocol === 'https:' } : at;
  if (secure && options.tls === undefined) throw new Error(`no TLS certificate for client URL ${url.href}`);
  const { host, port } = listenAddress(url, secure);
  const log = logger.child({ component: 'client-listener', url: url.href });
  const sniffTimeoutMs = options.sniffTimeoutMs ?? DEFAULT_SNIFF_TIMEOUT_MS;
  const closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
  const openingLimits = { timeoutMs: options.h2OpeningTimeoutMs ?? DEFAULT_H2_OPENING_TIMEOUT_MS, maxBytes: H2_OPENING_MAX_BYTES };
  const sniffing = new Set<Socket>();

  const toHttp1 = (socket: Socket): void => {
    sniffing.delete(socket);
    routes.http1(socket);
  };
  const toH2 = (socket: Socket): void => {
    awaitH2Opening(socket, openingLimits, {
      onPlain(_reason, firstRequestGrpc) {
        sniffing.delete(socket);
        if (secure && firstRequestGrpc === false) routes.httpOverH2(socket);
        else routes.grpc(socket);
      },
      onDropped(reason) {
        sniffing.delete(socket);
        log.debug({ remote: socket.remoteAddress, reason }, 'dropped client connection');
      },
    });
  };
  const route = (protocol: SniffedProtocol, socket: Socket): void => (protocol === Protocol.H2 ? toH2(socket) : toHttp1(socket));

  /** Serves an accepted (plaintext) or established (TLS) connection; `known`: its ALPN protocol. */
  const serve = (socket: Socket, known: SniffedProtocol | undefined): void => {
    sniffing.add(socket);
    if (known !== undefined) {
      socket.on('error', (err) => log.debug({ err, remote: socket.remoteAddress }, 'client socket error'));
      route(known, socket);
      return;
    }
    sniffSocket(socket, sniffTimeoutMs, {
      onDecided: (protocol) => route(protocol, socket),
      onDropped(reason) {
        sniffing.delete(socket);
        log.debug({ remote: socket.remoteAddress, reason }, 'dropped client connection');
      },
      onSocketError(err) {
        log.debug({ err, remote: socket.remoteAddress }, 'client socket error');
      },
    });
  };

  const acceptor: TlsAcceptor | undefined =
    secure && options.tls !== undefined
      ? createTlsAcceptor(
          { source: options.tls.source, requireClientCert: options.tls.requireClientCert, allowedCn: '', allowedHostname: '', alpn: ALPN, handshakeTimeoutMs: sniffTimeoutMs },
          {
            onSecure: (socket: TLSSocket) => serve(socket, alpnProtocol(socket)),
            onRefused: (reason, remote) => log.debug({ remote, reason }, 'refused TLS client connection'),
          },
        )
      : undefined;

  // Half-open: a client that sends its request and then ends its side (`nc -N`, some health
  // checkers) still gets the answer; the HTTP server ends the socket after it.
  // A port listed as both http:// and https:// tells them apart by the first byte (tls-or-plain.ts).
  const accept = (socket: Socket): void => {
    if (acceptor === undefined) return serve(socket, undefined);
    if (!plain) return acceptor.accept(socket);
    sniffing.add(socket);
    tlsOrPlain(socket, sniffTimeoutMs, {
      onTls() {
        sniffing.delete(socket);
        acceptor.accept(socket);
      },
      onPlain() {
        // Paused by the first-byte read: the sniffer's reading starts it again.
        serve(socket, undefined);
        socket.resume();
      },
      onDropped(reason) {
        sniffing.delete(socket);
        log.debug({ remote: socket.remoteAddress, reason }, 'dropped client connection');
      },
    });
  };
  let held: Set<Socket> | undefined;
  if (options.hold !== undefined) {
    const waiting = new Set<Socket>();
    held = waiting;
    void options.hold.then(() => {
      held = undefined;
      for (const socket of waiting) if (!socket.destroyed) accept(socket);
      waiting.clear();
    });
  }
  const netServer = createNetServer({ noDelay: true, allowHalfOpen: true }, (socket) => {
    socket.setNoDelay(true);
    if (held === undefined) return accept(socket);
    // Held: nothing is read until the member serves; a client that leaves meanwhile is forgotten.
    const waiting = held;
    waiting.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => waiting.delete(socket));
  });
  netServer.on('error', (err) => log.error({ err }, 'client listener error'));

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error): void => reject(new Error(`cannot listen on ${url.href}`, { cause: err }));
    netServer.once('error', onError);
    netServer.listen({ host, port }, () => {
      netServer.removeListener('error', onError);
      resolve();
    });
  });
  const address = netServer.address() as AddressInfo;
  const over = secure ? (plain ? ' in plaintext and over TLS' : ' over TLS') : '';
  log.info({ address: address.address, port: address.port, tls: secure, plaintext: plain }, `serving client requests (gRPC and HTTP/1.1${over})`);

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => routes.destroyAll(), closeGraceMs);
      timer.unref();
      netServer.close(() => {
        clearTimeout(timer);
        routes.closed();
        log.info('client listener closed');
        resolve();
      });
      acceptor?.close();
      for (const socket of sniffing) socket.destroy();
      for (const socket of held ?? []) socket.destroy();
      sniffing.clear();
      routes.drain(closeGraceMs);
    });
    return closed;
  };

  return { url, address, close };
}

/** The protocol a TLS client chose by ALPN; undefined when it chose none (then: sniff). */
function alpnProtocol(socket: TLSSocket): SniffedProtocol | undefined {
  if (socket.alpnProtocol === 'h2') return Protocol.H2;
  if (socket.alpnProtocol === 'http/1.1') return Protocol.Http1;
  return undefined;
}
