/**
 * Starts a front-end thread for the client URLs (front-end-thread.ts) and serves, on this
 * (the core) thread, what it forwards (core-connections.ts). To the member it looks like
 * transport/listen-clients.ts: the bound listeners and one `close()`.
 *
 * - Start: all or nothing, as `listenClients`: a URL that cannot be bound fails the start with
 *   the same message (`cannot listen on <url>`), and the thread is stopped.
 * - Log lines of the thread are written by this thread's logger (same outputs, same `name`).
 * - Close: the thread's listeners drain (GOAWAY, open calls finish) while this thread's HTTP
 *   servers close their idle piped connections; after the thread reports every listener
 *   closed (or the grace and one second more), the thread is stopped.
 * - A thread that fails or exits on its own takes the process down (`onFailure`, by default a
 *   fatal log line and exit status 1): the member never runs without its client port.
 */
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { TlsSource } from '../tls/tls-source.js';
import type { ClientListener } from '../transport/client-listener.js';
import type { ConnectionRoutes } from '../transport/connection-routes.js';
import type { H2Serving } from '../transport/h2/h2-serving.js';
import type { ClientListeners } from '../transport/listen-clients.js';
import { coreConnections } from './core-connections.js';
import type { FrontEndStart, ListeningAddress } from './front-end-thread.js';
import { FromFront } from './records.js';
import { startReplicaFeed, type ReplicaFeed, type ReplicaSource } from './replica-feed.js';
import type { ReplicaContext } from './replica-records.js';
import { decodeWatchReport, type WatchReport } from './watch-report.js';
import { TurnChannel } from './turn-channel.js';

export interface FrontEndOptions {
  readonly urls: readonly URL[];
  /** The gRPC layer's serving of HTTP/2 streams (api/grpc/h2-serving.ts). */
  readonly serving: H2Serving;
  /** This thread's HTTP routes, for piped connections (transport/in-process-routes.ts). */
  readonly http: ConnectionRoutes;
  readonly tls?: { readonly source: TlsSource; readonly requireClientCert: boolean };
  readonly logger: Logger;
  readonly closeGraceMs?: number;
  /**
   * Serializable Ranges and Watch streams served on the thread from a read replica of `store`
   * (local-reads.ts, local-watches.ts, replica-feed.ts).
   */
  readonly local?: {
    readonly store: ReplicaSource;
    /** The store's backend database (opened by the thread too). */
    readonly location: string;
    readonly context: () => ReplicaContext;
    readonly maxRecvBytes: number;
    readonly maxSendBytes: number;
    /** The watch hub's fragmenting threshold. */
    readonly maxEventBytes: number;
    readonly progressIntervalMs: number;
    readonly electionTimeoutMs: number;
    /** `n` Ranges were answered on the thread. */
    readonly onServed: (n: number) => void;
    /** The thread's watch streams: counts since the last report, gauges now. */
    readonly onWatchReport: (report: WatchReport) => void;
  };
  /** A call served on the thread ended by a fault inside the member (the thread logged it): count it. */
  readonly onClientFault?: (path: string) => void;
  /** The thread failed or exited unexpectedly. Default: log fatal and exit the process with status 1. */
  readonly onFailure?: (err: Error) => void;
}

const DEFAULT_CLOSE_GRACE_MS = 2_000;

type Control = { listening?: ListeningAddress[]; failed?: string; log?: string; closed?: true };

export async function startFrontEnd(o: FrontEndOptions): Promise<ClientListeners> {
  const log = o.logger.child({ component: 'front-end' });
  const closeGraceMs = o.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
  const worker = new Worker(new URL('./front-end-thread.js', import.meta.url));
  let stopping = false;
  const fail =
    o.onFailure ??
    ((err: Error) => {
      log.fatal({ err }, 'client front-end thread failed');
      process.exit(1);
    });

  let onListening: ((c: Control) => void) | undefined;
  let feed: ReplicaFeed | undefined = undefined;
  let onClosed: (() => void) | undefined;
  const channel: TurnChannel = new TurnChannel(worker, {
    record: (r, extras) => {
      if (r.kind === FromFront.LocalReads) o.local?.onServed(r.arg);
      else if (r.kind === FromFront.WatchReport) o.local?.onWatchReport(decodeWatchReport(r.payload));
      else if (r.kind === FromFront.Fault) o.onClientFault?.(r.payload.toString('utf8'));
      else if (r.kind === FromFront.ReplicaWanted) feed?.want();
      else if (r.kind === FromFront.ReplicaIdle) feed?.idle();
      else connections.fromFront(r, extras);
    },
    control: (m) => {
      const c = m as Control;
      if (c.log !== undefined) relayLogLine(o.logger, c.log);
      else if (c.closed === true) onClosed?.();
      else onListening?.(c);
    },
  });
  const connections = coreConnections(channel, o.serving, o.http);

  const stopped = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (err) => {
    if (!stopping) fail(err);
  });
  worker.once('exit', (code) => {
    connections.dropAll();
    if (!stopping) fail(new Error(`client front-end thread exited with code ${code}`));
  });

  const start: FrontEndStart = {
    urls: o.urls.map((u) => u.href),
    logLevel: o.logger.level,
    tls: o.tls === undefined ? undefined : { spec: o.tls.source.spec, requireClientCert: o.tls.requireClientCert },
    listener: { closeGraceMs },
    local: o.local === undefined ? undefined : threadSide(o.local),
  };
  const ready = await new Promise<Control>((resolve) => {
    onListening = resolve;
    channel.control({ start });
  });
  onListening = undefined;
  if (ready.failed !== undefined) {
    stopping = true;
    await worker.terminate();
    throw new Error(ready.failed);
  }
  // From here every change of the store reaches the thread before any reply written after it.
  feed = o.local === undefined ? undefined : startReplicaFeed(channel, o.local.store, o.local.context);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stopping = true;
      feed?.stop();
      const closed = new Promise<void>((resolve) => {
        onClosed = resolve;
        setTimeout(resolve, closeGraceMs + 1_000).unref();
      });
      channel.control({ close: true });
      o.http.drain(closeGraceMs);
      await closed;
      o.http.destroyAll();
      o.http.closed();
      await worker.terminate();
      await stopped;
    })();
    return closing;
  };
  const listeners: ClientListener[] = (ready.listening ?? []).map((l) => ({ url: new URL(l.url), address: l.address as AddressInfo, close }));
  return { listeners, close };
}

/** What the thread needs of `local` (structured-clone safe: no store, no callbacks). */
function threadSide(l: NonNullable<FrontEndOptions['local']>): FrontEndStart['local'] {
  return {
    location: l.location,
    maxRecvBytes: l.maxRecvBytes,
    maxSendBytes: l.maxSendBytes,
    maxEventBytes: l.maxEventBytes,
    progressIntervalMs: l.progressIntervalMs,
    electionTimeoutMs: l.electionTimeoutMs,
  };
}

/** Writes a log line of the thread through `logger`: same level, message and fields. */
function relayLogLine(logger: Logger, line: string): void {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  const { level, ts: _ts, msg, ...fields } = entry;
  const method = typeof level === 'string' && level in logger ? (level as 'info') : 'info';
  logger[method](fields, typeof msg === 'string' ? msg : '');
}
