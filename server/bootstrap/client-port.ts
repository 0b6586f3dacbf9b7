/**
 * The client port (gRPC and HTTP on `--listen-client-urls`, on this thread or a front-end
 * thread), serving only once the member may serve (serve-gate.ts), so that no route — gRPC, the
 * JSON gateway, /health, v2, a front-end thread's local reads and watches — can answer from a
 * state older than one this member has shown.
 *
 * Two ways (`early`):
 * - bound at once, connections held until `ready` (the listener's `hold`): as etcd, a client
 *   that connects while the member starts waits instead of being refused (this thread);
 * - bound only after `ready` (a front-end thread, which binds its own listeners).
 *
 * Contract:
 * - `listen` runs once — at once when `early`, else after `ready` resolves unless `close()` was
 *   called first (then never);
 * - `onListening` gets the bound listeners once they are bound and `ready` has resolved (the
 *   place to log `ready to serve client requests`);
 * - a failure to bind goes to `onFailed` (the member cannot serve: its caller stops the process);
 * - `close()` resolves once the listeners (if any were bound, or are being bound) are closed.
 */
import type { Logger } from 'pino';
import { clientThreads } from '../config/client-threads.js';
import { startFrontEnd, type FrontEndOptions } from '../frontend/front-end.js';
import type { ClientTls, HttpHandler } from '../transport/client-listener.js';
import type { H2Serving } from '../transport/h2/h2-serving.js';
import { inProcessRoutes } from '../transport/in-process-routes.js';
import { listenClients, type ClientListeners } from '../transport/listen-clients.js';

/** Front-end threads for the client port (config/client-threads.ts, checked when the configuration is loaded). */
export function frontEndThreads(): number {
  const read = clientThreads(process.env);
  return read.ok ? read.value : 0;
}

export interface ClientPortListenDeps {
  readonly urls: readonly URL[];
  readonly h2: H2Serving;
  readonly http: HttpHandler;
  readonly tls?: ClientTls;
  readonly logger: Logger;
  /** Serve the port on a front-end thread (frontend/), with these of its options; absent: on this thread. */
  readonly frontEnd?: Pick<FrontEndOptions, 'local' | 'onClientFault'>;
  /** This thread's listeners hold the connections they accept until it resolves. */
  readonly hold: Promise<void>;
}

/** How the client port is bound: on a front-end thread, or on this thread with connections held until `hold`. */
export function clientPortListen(d: ClientPortListenDeps): () => Promise<ClientListeners> {
  if (d.frontEnd === undefined) return () => listenClients(d.urls, d.h2, d.http, d.logger, { tls: d.tls, hold: d.hold });
  const frontEnd = d.frontEnd;
  return () =>
    startFrontEnd({ urls: d.urls, serving: d.h2, http: inProcessRoutes(d.h2, d.http, d.logger), tls: d.tls, logger: d.logger, local: frontEnd.local, onClientFault: frontEnd.onClientFault });
}

export interface DeferredClientPort {
  close(): Promise<void>;
}

export interface DeferredClientPortDeps {
  readonly ready: Promise<void>;
  /** Bind at once (the listeners hold connections until `ready` themselves). */
  readonly early?: boolean;
  readonly listen: () => Promise<ClientListeners>;
  readonly onListening: (listeners: ClientListeners) => void;
  readonly onFailed: (error: unknown) => void;
}

export function clientPortWhenReady(d: DeferredClientPortDeps): DeferredClientPort {
  let closed = false;
  let binding: Promise<ClientListeners | undefined> | undefined;
  const bind = (): void => {
    binding = d.listen().then(
      (listeners) => {
        void d.ready.then(() => {
          if (!closed) d.onListening(listeners);
        });
        return listeners;
      },
      (e: unknown) => {
        if (!closed) d.onFailed(e);
        return undefined;
      },
    );
  };
  if (d.early === true) bind();
  else
    void d.ready.then(() => {
      if (!closed) bind();
    });
  return {
    async close() {
      closed = true;
      // Before `ready` nothing is bound and nothing will be (`ready` may never come: no quorum).
      const listeners = await binding;
      await listeners?.close();
    },
  };
}

/** The bound client addresses, e.g. http://127.0.0.1:2379 (ports resolved). */
export function boundUrls(listeners: ClientListeners): string[] {
  return listeners.listeners.map((l) => `${l.url.protocol}//${l.address.family === 'IPv6' ? `[${l.address.address}]` : l.address.address}:${l.address.port}`);
}
