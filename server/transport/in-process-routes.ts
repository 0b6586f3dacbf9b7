/**
 * Connections served on this thread (connection-routes.ts): HTTP/1.1 by an `http.Server` that
 * never listens itself, HTTP/2 requests that are not gRPC (TLS only) by Node's HTTP/2
 * compatibility API, and gRPC on our own framing (`h2`: the gRPC layer serves its streams).
 *
 * The same routes serve connections that a front-end thread pipes here (frontend/): those
 * arrive as in-memory sockets carrying the client's address and certificate.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { ConnectionRoutes } from './connection-routes.js';
import type { H2Serving } from './h2/h2-serving.js';
import { trackHttpConnections } from './http-connections.js';
import { ownH2Connections } from './own-h2-connections.js';

/** An HTTP/1.1 request handler; a returned promise must not reject (koa's `app.callback()` qualifies). */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface InProcessRouteOptions {
  /** HTTP/1.1 keep-alive idle timeout. Default 5 s (Node's default). */
  readonly keepAliveTimeoutMs?: number;
  /** An HTTP/1.1 connection must complete its first request head within this time. Default 60 s. */
  readonly headersTimeoutMs?: number;
}

export function inProcessRoutes(h2: H2Serving, httpHandler: HttpHandler, log: Logger, options: InProcessRouteOptions = {}): ConnectionRoutes {
  const httpServer = createHttpServer({ requestTimeout: 0 }, (req, res) => {
    void httpHandler(req, res);
  });
  httpServer.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  // A client that ends its side right after its request is answered, then the socket is ended
  // (without this, Node aborts the request and ends the socket at once: the answer is lost).
  // `httpAllowHalfOpen` is the field Node's HTTP server reads on a socket's 'end' (untyped).
  (httpServer as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  httpServer.on('clientError', (err: Error, socket: Socket) => {
    log.debug({ err }, 'HTTP client error');
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const httpConnections = trackHttpConnections(httpServer, options.headersTimeoutMs ?? 60_000);
  // Over TLS, an HTTP/2 connection whose first request is not a gRPC call (curl negotiates h2 by
  // ALPN for /health) is served by the HTTP handler through Node's HTTP/2 compatibility API,
  // as etcd routes HTTP/2 requests by content type on its TLS port.
  let http2Server: ReturnType<typeof createHttp2Server> | undefined;
  const http2Sockets = new Set<Socket>();
  const own = ownH2Connections(h2, log);

  return {
    http1(socket) {
      httpConnections.add(socket);
      httpServer.emit('connection', socket);
      socket.resume();
    },
    httpOverH2(socket) {
      http2Server ??= createHttp2Server({}, (req, res) => {
        void httpHandler(req as unknown as IncomingMessage, res as unknown as ServerResponse);
      });
      http2Sockets.add(socket);
      socket.once('close', () => http2Sockets.delete(socket));
      http2Server.emit('connection', socket);
    },
    grpc(socket) {
      own.serve(socket, undefined);
    },
    drain() {
      own.goAway();
      httpConnections.closeIdle();
    },
    destroyAll() {
      httpConnections.destroyAll();
      for (const socket of http2Sockets) socket.destroy();
      own.destroyAll();
    },
    closed() {
      for (const socket of http2Sockets) socket.destroy();
    },
  };
}
