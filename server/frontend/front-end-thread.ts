/**
 * The front-end thread's entry (a `worker_threads` Worker started by front-end.ts): it binds
 * the client URLs it is given, runs TLS, the protocol sniff and our HTTP/2 framing for every
 * connection (transport/client-listener.ts with worker-routes.ts), and exchanges records with
 * the core thread (turn-channel.ts).
 *
 * Control messages:
 *   core → here  `{ start: FrontEndStart }` once, then `{ close: true }`;
 *   here → core  `{ listening: [{ url, address }] }` or `{ failed: message }`, `{ log: line }`
 *                for each log line (the core writes it), `{ closed: true }` when every
 *                listener is closed.
 */
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';
import { createLogger } from '../log/logger.js';
import { createTlsSource, type TlsSpec } from '../tls/tls-source.js';
import { clientPorts } from '../transport/client-ports.js';
import { listenClientRouted, type ClientListener, type ClientListenerOptions } from '../transport/client-listener.js';
import type { Logger } from 'pino';
import { openLevelBackend, type LevelBackend } from '../storage/level-backend.js';
import { fullGc } from '../bootstrap/full-gc.js';
import { startIdleGc } from '../bootstrap/idle-gc.js';
import { LocalReads } from './local-reads.js';
import { LocalWatches } from './local-watches.js';
import { ReplicaHost } from './replica-host.js';
import { FromFront } from './records.js';
import { TurnChannel } from './turn-channel.js';
import { workerRoutes, type LocalServing, type WorkerRoutes } from './worker-routes.js';

/** What the core sends to start a front end (structured-clone safe). */
export interface FrontEndStart {
  readonly urls: readonly string[];
  readonly logLevel: string;
  readonly tls?: { readonly spec: TlsSpec; readonly requireClientCert: boolean };
  readonly listener: Pick<ClientListenerOptions, 'sniffTimeoutMs' | 'closeGraceMs' | 'h2OpeningTimeoutMs'>;
  /**
   * Serializable Ranges (local-reads.ts) and Watch streams (local-watches.ts) served here, from
   * the member's backend at `location`.
   */
  readonly local?: {
    readonly location: string;
    readonly maxRecvBytes: number;
    readonly maxSendBytes: number;
    readonly maxEventBytes: number;
    readonly progressIntervalMs: number;
    readonly electionTimeoutMs: number;
  };
}

export interface ListeningAddress {
  readonly url: string;
  readonly address: AddressInfo;
}

const port = parentPort;
if (port === null) throw new Error('front-end-thread.js runs as a worker thread');

let routes: WorkerRoutes | undefined;
const channel = new TurnChannel(port, {
  record: (r) => routes?.fromCore(r),
  turnEnd: () => routes?.turnEnd(),
  control: (message) => void onControl(message as { start?: FrontEndStart; close?: true }),
});
let listeners: ClientListener[] = [];
let backend: LevelBackend | undefined;
let stopIdleGc = (): void => undefined;
let local: LocalServing | undefined;

async function onControl(message: { start?: FrontEndStart; close?: true }): Promise<void> {
  if (message.start !== undefined) await start(message.start);
  if (message.close === true) {
    await Promise.all(listeners.map((l) => l.close()));
    stopIdleGc();
    local?.watches.close();
    local?.host.close();
    await backend?.close().catch(() => undefined);
    backend = undefined;
    channel.control({ closed: true });
  }
}

async function start(s: FrontEndStart): Promise<void> {
  const logger = createLogger({ level: s.logLevel, outputs: [], destination: { write: (line: string) => channel.control({ log: line }) } });
  const log = logger.child({ component: 'front-end' });
  routes = workerRoutes(channel, log, await localServing(s, log));
  try {
    let tls: ClientListenerOptions['tls'];
    if (s.tls !== undefined) {
      const source = createTlsSource({ ...s.tls.spec, logger: logger.child({ component: 'tls' }) });
      await source.load();
      tls = { source, requireClientCert: s.tls.requireClientCert };
    }
    for (const port of clientPorts(s.urls.map((u) => new URL(u)))) listeners.push(await listenClientRouted(port, routes, logger, { ...s.listener, tls }));
    channel.control({ listening: listeners.map((l): ListeningAddress => ({ url: l.url.href, address: l.address })) });
  } catch (err) {
    await Promise.all(listeners.map((l) => l.close()));
    listeners = [];
    channel.control({ failed: (err as Error).message });
  }
}

/** What the thread serves itself, on its own handle of the member's database (shared with the core's). */
async function localServing(s: FrontEndStart, log: Logger): Promise<LocalServing | undefined> {
  const o = s.local;
  if (o === undefined) return undefined;
  // The replica's index makes this heap as large as the core's: give a burst's garbage back when idle, as the core does.
  try {
    stopIdleGc = startIdleGc(fullGc(), (ms, bytes) => log.debug({ 'pause-ms': Math.round(ms), 'heap-bytes': bytes }, 'collected garbage while idle'));
  } catch (err) {
    log.warn({ err }, 'no idle garbage collection on the front-end thread (no in-process inspector)');
  }
  try {
    backend = await openLevelBackend(o.location, { createIfMissing: false });
  } catch (err) {
    log.warn({ err, location: o.location }, 'cannot open the backend on the front-end thread; every read goes to the core');
  }
  const host = new ReplicaHost({
    backend,
    onBroken: (err) => log.error({ err }, 'read replica lost track of the store; reads and watches go to the core until a new one'),
    onWanted: () => channel.record(FromFront.ReplicaWanted, 0, 0, 0),
    onIdle: () => channel.record(FromFront.ReplicaIdle, 0, 0, 0),
  });
  const reads = new LocalReads(host, {
    maxRecvBytes: o.maxRecvBytes,
    maxSendBytes: o.maxSendBytes,
    onServed: (n) => channel.record(FromFront.LocalReads, 0, 0, n),
  });
  const watches = new LocalWatches(host, {
    maxRecvBytes: o.maxRecvBytes,
    maxSendBytes: o.maxSendBytes,
    maxEventBytes: o.maxEventBytes,
    progressIntervalMs: o.progressIntervalMs,
    electionTimeoutMs: o.electionTimeoutMs,
    logger: log,
    onReport: (payload) => channel.record(FromFront.WatchReport, 0, 0, 0, payload),
    onFault: (path) => channel.record(FromFront.Fault, 0, 0, 0, Buffer.from(path, 'utf8')),
  });
  local = { host, reads, watches };
  return local;
}
