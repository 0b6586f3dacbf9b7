/**
 * The public contract of the peer transport: moves OPAQUE frames between members identified
 * by bigint ids, streams snapshots, and serves the peer HTTP listener. Encoding of Raft
 * messages is the caller's; the transport never looks inside a frame.
 *
 * Delivery contract (per ordered pair sender → receiver): frames handed to `onFrames` are a
 * subsequence of the frames given to `send`, in the same order, without duplicates. Frames
 * are lost only when the peer is down, a queue bound is hit, or a connection breaks; every
 * such loss is counted (`kvstore_network_peer_sent_failures_total`) and reported through
 * `onUnreachable` (at most once per peer per event-loop turn, never synchronously from `send`).
 * A frame for an id that is not a peer is counted only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Result } from '../errors/domain-error.js';
import type { BackoffPolicy } from './backoff.js';
import type { PeerResult } from './errors.js';
import type { TlsSource } from '../tls/tls-source.js';
import type { PeerDialTls } from './peer-request.js';

export interface PeerHandlers {
  /** Frames from one sender, in order; one call per received chunk. Must not throw (a throw is logged). */
  onFrames(from: bigint, frames: Buffer[]): void;
  /**
   * A snapshot streamed by `from`. `body` yields the bytes in order with back-pressure (the
   * sender waits while the handler does not pull) and throws when the sender's connection
   * breaks. The sender's `sendSnapshot` completes with the returned outcome.
   */
  onSnapshot(from: bigint, meta: Buffer, body: AsyncIterable<Buffer>): Promise<Result<void>>;
  /** Frames to `to` were dropped (see the delivery contract). Called from a timer turn. */
  onUnreachable(to: bigint): void;
  /** `to` refused our stream (404 unknown, 410 removed — i.e. we are removed — 412 mismatch); once per change. */
  onRejected?(to: bigint, status: number, reason: string): void;
}

/** Counters of one peer, for diagnostics and tests. */
export interface PeerStats {
  readonly active: boolean;
  readonly activeSince: number | undefined;
  /** Data frames written to a connection. */
  readonly framesSent: number;
  /** Data frames dropped (peer down, bounds, broken connection with unflushed frames). */
  readonly framesDropped: number;
  /** Socket writes of data (one per non-empty flush: a burst of sends in one turn is one write). */
  readonly writes: number;
  readonly bytesSent: number;
  /** Data frames received from this peer. */
  readonly framesReceived: number;
}

export interface PeerTransport {
  /** Binds every listen URL. Rejects (an Error) when a URL cannot be served or bound. */
  start(): Promise<void>;
  /** URLs actually bound (port 0 resolved), in listen-URL order; empty before `start`. */
  boundUrls(): readonly string[];
  /** Starts dialing `id` at `urls` (tried in turn). Adding a known id updates its URLs. */
  addPeer(id: bigint, urls: readonly string[]): void;
  /** Replaces the URLs of `id`; the current connection is kept when its URL is still listed. */
  updatePeer(id: bigint, urls: readonly string[]): void;
  /** Forgets `id`: its connections close, and later requests from it are answered 410. */
  removePeer(id: bigint): void;
  /**
   * Queues `frame` for `to`: never blocks, never throws (see the delivery contract). The
   * transport owns `frame` from now on: the caller must not modify it afterwards.
   */
  send(to: bigint, frame: Buffer): void;
  /**
   * Writes every queued frame now instead of at the end of the event-loop turn: for a caller
   * that has queued all it has for the moment and is waiting on the answers (latency).
   */
  flush(): void;
  /** Streams a snapshot to `to` over its own connection. `body` is pulled with back-pressure. */
  sendSnapshot(to: bigint, meta: Buffer, body: AsyncIterable<Buffer>): Promise<PeerResult<void>>;
  /** Unix ms at which the current continuous outbound connection to `id` came up; undefined when down. */
  activeSince(id: bigint): number | undefined;
  stats(id: bigint): PeerStats | undefined;
  /** Adds a route to the peer HTTP listener (also before `start`); returns its removal. */
  route(route: PeerRoute): () => void;
  /** Closes listeners, streams, timers and in-flight snapshots; resolves when all sockets are gone. */
  close(): Promise<void>;
}

/** An extra HTTP route of the peer listener. */
export interface PeerRoute {
  /** Upper-case method, e.g. `GET`; other methods on the path get 405. */
  readonly method: string;
  /** Exact path, or a prefix when `prefix` is true (`/members/promote/`). */
  readonly path: string;
  readonly prefix?: boolean;
  /**
   * The handler answers `Expect: 100-continue` itself (`res.writeContinue()` once it accepts
   * the request); otherwise `100 Continue` is sent before it runs.
   */
  readonly manualContinue?: boolean;
  /** Must answer `res`; a rejected promise or a throw is logged and answered 500. */
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
}

export interface VersionInfo {
  /** Full server version, e.g. `3.4.45`. */
  readonly etcdserver: string;
  /** Cluster version `X.Y.0`, or `not_decided`. */
  readonly etcdcluster: string;
}

export interface PeerTuning {
  /** The dialer pings this often; the answer also measures the round-trip time. */
  readonly heartbeatIntervalMs: number;
  /** A stream that hears nothing for this long is closed (half-open detection, both ends). */
  readonly idleTimeoutMs: number;
  /** A dial (TCP connect + handshake answer) that takes longer fails. */
  readonly dialTimeoutMs: number;
  readonly backoff: BackoffPolicy;
  /** Frames queued for one peer in one turn beyond this are dropped. */
  readonly maxQueueFrames: number;
  /** Queued plus socket-buffered bytes for one peer beyond this make `send` drop. */
  readonly maxQueueBytes: number;
  /** Largest data frame payload sent or accepted. */
  readonly maxFrameBytes: number;
  /** A snapshot connection idle (no bytes either way) this long is aborted. */
  readonly snapshotIdleTimeoutMs: number;
  /** Frames smaller than this are copied into one buffer per flush; larger ones are written as is. */
  readonly coalesceBelowBytes: number;
}

export const DEFAULT_PEER_TUNING: PeerTuning = {
  heartbeatIntervalMs: 1_000,
  idleTimeoutMs: 5_000,
  dialTimeoutMs: 1_000,
  backoff: { initialMs: 50, maxMs: 1_000 },
  maxQueueFrames: 4_096,
  maxQueueBytes: 32 * 1024 * 1024,
  maxFrameBytes: 64 * 1024 * 1024,
  snapshotIdleTimeoutMs: 30_000,
  coalesceBelowBytes: 64 * 1024,
};

export interface PeerTransportOptions {
  readonly localId: bigint;
  readonly clusterId: bigint;
  /** `--listen-peer-urls`: `http://host:port` or `https://host:port` (port 0 picks a free port). */
  readonly listenUrls: readonly string[];
  /** `--initial-advertise-peer-urls`, sent as `X-PeerURLs`. Defaults to the bound URLs. */
  readonly advertiseUrls?: readonly string[];
  readonly serverVersion: string;
  readonly minClusterVersion: string;
  readonly handlers: PeerHandlers;
  /** Answers `GET /version`. */
  readonly version: () => VersionInfo;
  /** Answers `GET /members` (serialised as JSON). */
  readonly members: () => unknown;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly tuning?: Partial<PeerTuning>;
  /** Wall clock in Unix ms (for `activeSince` and liveness). Default `Date.now`. */
  readonly now?: () => number;
  /** Random source in [0, 1) for backoff jitter. Default `Math.random`. */
  readonly random?: () => number;
  /** Peer TLS: serving https listen URLs and dialling https peer URLs. */
  readonly tls?: PeerTls;
}

/** The peer side's TLS (server/tls builds it from the --peer-* flags). */
export interface PeerTls {
  /** Serves `https:` listen URLs; required when one is given. */
  readonly accept?: PeerTlsAccept;
  /** Options for dialling `https:` peer URLs (the peer certificate as the client certificate). */
  readonly dial: PeerDialTls;
}

export interface PeerTlsAccept {
  readonly source: TlsSource;
  /** `--peer-client-cert-auth` or a `--peer-trusted-ca-file`: a certificate from the trusted CA is required. */
  readonly requireClientCert: boolean;
  readonly allowedCn: string;
  readonly allowedHostname: string;
  /** etcd's peer client SAN check; undefined with --experimental-peer-skip-client-san-verification. */
  readonly checkClientSan?: { readonly resolve: (name: string) => Promise<readonly string[]> };
}
