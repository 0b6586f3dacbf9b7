/**
 * Where the client port sends a connection once it knows what the connection speaks
 * (client-listener.ts decides; the routes serve). Two implementations:
 * - in-process-routes.ts: this thread serves it (HTTP/1.1 server, gRPC on our own framing);
 * - frontend/worker-routes.ts: a front-end thread frames gRPC itself and forwards streams, and
 *   pipes any other connection's bytes, to the thread that serves them.
 *
 * Every socket is handed over paused; the route resumes it when it reads.
 */
import type { Socket } from 'node:net';

export interface ConnectionRoutes {
  /** An HTTP/1.1 connection (sniffed, or ALPN `http/1.1`). */
  http1(socket: Socket): void;
  /** An HTTP/2 connection over TLS whose first request is not a gRPC call (curl's `GET /health`). */
  httpOverH2(socket: Socket): void;
  /** An HTTP/2 gRPC connection; the socket holds every byte read so far (unshifted). */
  grpc(socket: Socket): void;
  /** The listener is closing: refuse new requests, let the open ones finish (GOAWAY, idle HTTP closed). */
  drain(graceMs: number): void;
  /** The grace is over: drop every connection left. */
  destroyAll(): void;
  /** The listening socket is closed (every connection is gone or destroyed). */
  closed(): void;
}
