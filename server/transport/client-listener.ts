/**
 * One client port for gRPC and HTTP/1.1 (plaintext or TLS), like etcd's connection multiplexer.
 *
 * Every accepted TCP connection is sniffed (sniff-socket.ts): a connection that opens with the
 * HTTP/2 preface (gRPC clients speak h2c with prior knowledge) is served on our own HTTP/2
 * framing (h2/h2-connection.ts, its streams handed to `options.h2`), or, without `options.h2`,
 * injected into the grpc-js server (`createConnectionInjector`); anything else goes to an
 * internal HTTP/1.1 server that calls `httpHandler` (e.g. a koa app's `callback()`).
 *
 * An HTTP/2 connection is read a little further first (h2-opening-socket.ts), up to its first
 * request: when injecting into grpc-js and that request's `:authority` is one Node's HTTP/2
 * layer refuses (etcdctl `--cluster` sends `http://host:port`), the connection is served through
 * the rewriting relay (authority-relay.ts); otherwise the socket itself is injected. Our own
 * framing takes any `:authority`.
 *
 * An `https:` URL runs the TLS handshake first (server/tls/tls-acceptor.ts: the certificate files
 * are checked at every accept, client certificates required and verified when configured), then
 * routes by ALPN: `h2` goes to the HTTP/2 stage above (authority relay included), `http/1.1` to
 * the HTTP/1.1 server, and a client that negotiated no protocol is sniffed like a plaintext one.
 *
 * Contract:
 * - `http:` URLs, and `https:` URLs when `options.tls` is given, with an explicit port (0 = any
 *   free port); `unix://` is not served;
 * - the grpc.Server is NOT bound by this listener and needs no `bindAsync`; the caller owns it
 *   (services, `tryShutdown`) and may share it between several listeners;
 * - as a consequence, every h2c connection goes to gRPC (HTTP/2 clients of the JSON gateway are
 *   not served);
 * - `close()` stops accepting, drops sockets still being sniffed, asks gRPC sessions to drain
 *   (GOAWAY), closes idle HTTP connections and busy ones after their response; after
 *   `closeGraceMs` everything left is destroyed. It resolves when every socket is gone.
 */
import * as grpc from '@grpc/grpc-js';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from 'pino';
import { createTlsAcceptor, type TlsAcceptor } from '../tls/tls-acceptor.js';
import type { TlsSource } from '../tls/tls-source.js';
import { createAuthorityRelay } from './authority-relay.js';
import { H2Connection } from './h2/h2-connection.js';
import type { H2Serving } from './h2/h2-serving.js';
import { awaitH2Opening } from './h2-opening-socket.js';
import { trackHttpConnections } from './http-connections.js';
import { Protocol } from './protocol-sniff.js';
import { sniffSocket, type SniffedProtocol } from './sniff-socket.js';

/** An HTTP/1.1 request handler; a returned promise must not reject (koa's `app.callback()` qualifies). */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface ClientListenerOptions {
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
  /**
   * Serves HTTP/2 gRPC connections on our own framing (h2/): every stream goes to it. Absent:
   * the connection is injected into the grpc-js server (Node's HTTP/2).
   */
  readonly h2?: H2Serving;
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
  url: URL,
  grpcServer: grpc.Server,
  httpHandler: HttpHandler,
  logger: Logger,
  options: ClientListenerOptions = {},
): Promise<ClientListener> {
  const secure = url.protocol === 'https:';
  if (secure && options.tls === undefined) throw new Error(`no TLS certificate for client URL ${url.href}`);
  const { host, port } = listenAddress(url, secure);
  const log = logger.child({ component: 'client-listener', url: url.href });
  const sniffTimeoutMs = options.sniffTimeoutMs ?? DEFAULT_SNIFF_TIMEOUT_MS;
  const closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
  const openingLimits = { timeoutMs: options.h2OpeningTimeoutMs ?? DEFAULT_H2_OPENING_TIMEOUT_MS, maxBytes: H2_OPENING_MAX_BYTES };

  const injector = grpcServer.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  const httpServer = createHttpServer({ requestTimeout: 0 }, (req, res) => {
    void httpHandler(req, res);
  });
  httpServer.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  httpServer.on('clientError', (err: Error, socket: Socket) => {
    log.debug({ err }, 'HTTP client error');
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const httpConnections = trackHttpConnections(httpServer, options.headersTimeoutMs ?? 60_000);
  // Over TLS, an HTTP/2 connection whose first request is not a gRPC call (curl negotiates h2 by
  // ALPN for /health) is served by the HTTP handler through Node's HTTP/2 compatibility API,
  // as etcd routes HTTP/2 requests by content type on its TLS port.
  const http2Server = secure
    ? createHttp2Server({}, (req, res) => {
        void httpHandler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      })
    : undefined;
  const http2Sockets = new Set<Socket>();
  const sniffing = new Set<Socket>();
  const ownConnections = new Set<H2Connection>();

  /** Serves an HTTP/2 connection on our own framing; `initial`: bytes already read (and not unshifted). */
  const serveOwn = (h2: H2Serving, socket: Socket, initial: Buffer | undefined): void => {
    const conn = new H2Connection(socket);
    const service = h2.open(socket);
    conn.onStream = service.onStream;
    conn.onError = (err) => log.debug({ err, remote: socket.remoteAddress }, 'HTTP/2 connection error');
    conn.onClose = () => {
      ownConnections.delete(conn);
      service.close();
    };
    ownConnections.add(conn);
    if (initial !== undefined) conn.receive(initial);
    socket.resume();
  };

  const toHttp1 = (socket: Socket): void => {
    sniffing.delete(socket);
    httpConnections.add(socket);
    httpServer.emit('connection', socket);
    socket.resume();
  };
  const toH2 = (socket: Socket): void => {
    awaitH2Opening(socket, openingLimits, {
      onPlain(_reason, firstRequestGrpc) {
        sniffing.delete(socket);
        if (http2Server !== undefined && firstRequestGrpc === false) {
          http2Sockets.add(socket);
          socket.once('close', () => http2Sockets.delete(socket));
          http2Server.emit('connection', socket);
        } else if (options.h2 !== undefined) {
          serveOwn(options.h2, socket, undefined);
        } else {
          injector.injectConnection(socket);
        }
      },
      onRelay(bytes, decision) {
        sniffing.delete(socket);
        if (options.h2 !== undefined) {
          // Our framing takes any :authority: no relay needed.
          serveOwn(options.h2, socket, bytes);
          return;
        }
        const remote = socket.remoteAddress;
        log.debug({ remote, authority: decision.authority, reason: decision.reason }, 'serving HTTP/2 connection through the :authority relay');
        injector.injectConnection(createAuthorityRelay(socket, bytes, {
          swallowSettingsAck: true,
          onChange: (change) => log.debug({ remote, ...change }, 'rewrote a refused :authority'),
          onMalformed: (reason) => log.debug({ remote, reason }, 'relay passes the rest of the connection through untouched'),
        }));
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

  const netServer = createNetServer({ noDelay: true }, (socket) => {
    socket.setNoDelay(true);
    if (acceptor !== undefined) acceptor.accept(socket);
    else serve(socket, undefined);
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
  log.info({ address: address.address, port: address.port, tls: secure }, `serving client requests (gRPC and HTTP/1.1${secure ? ' over TLS' : ''})`);

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        httpConnections.destroyAll();
        for (const socket of http2Sockets) socket.destroy();
        for (const conn of ownConnections) conn.destroy();
        injector.destroy();
      }, closeGraceMs);
      timer.unref();
      netServer.close(() => {
        clearTimeout(timer);
        for (const socket of http2Sockets) socket.destroy();
        injector.destroy();
        log.info('client listener closed');
        resolve();
      });
      acceptor?.close();
      for (const socket of sniffing) socket.destroy();
      sniffing.clear();
      injector.drain(closeGraceMs);
      for (const conn of ownConnections) conn.goAway();
      httpConnections.closeIdle();
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
