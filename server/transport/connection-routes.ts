/**
 * Where the client port sends a connection once it knows what the connection speaks
 * (client-listener.ts decides; the routes serve). Two implementations:
 * - in-process-routes.ts: this thread serves it (HTTP/1.1 server, gRPC on our own framing or
 *   grpc-js);
 * - frontend/worker-routes.ts: a front-end thread frames gRPC itself and forwards streams, and
 *   pipes any other connection's bytes, to the thread that serves them.
 *
 * Every socket is handed over paused; the route resumes it when it reads.
 */
import type { Socket } from 'node:net';
import type { OpeningDecision } from './h2-opening.js';

export type RelayDecision = Extract<OpeningDecision, { route: 'relay' }>;

export interface ConnectionRoutes {
  /** An HTTP/1.1 connection (sniffed, or ALPN `http/1.1`). */
  http1(socket: Socket): void;
  /** An HTTP/2 connection over TLS whose first request is not a gRPC call (curl's `GET /health`). */
  httpOverH2(socket: Socket): void;
  /**
   * An HTTP/2 gRPC connection. `relay` is set when its first request's `:authority` is one
   * Node's HTTP/2 layer refuses; `initial` then holds every byte read so far (nothing was
   * unshifted), otherwise the socket holds them.
   */
  grpc(socket: Socket, initial: Buffer | undefined, relay: RelayDecision | undefined): void;
  /** The listener is closing: refuse new requests, let the open ones finish (GOAWAY, idle HTTP closed). */
  drain(graceMs: number): void;
  /** The grace is over: drop every connection left. */
  destroyAll(): void;
  /** The listening socket is closed (every connection is gone or destroyed). */
  closed(): void;
}
