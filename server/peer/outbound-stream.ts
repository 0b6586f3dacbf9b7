/**
 * The sending half of one member pair: dials the peer, keeps one upgraded TCP connection,
 * writes queued data frames in one write per flush, pings for liveness and round-trip time,
 * and redials with backoff.
 *
 * States: `connecting` (first dial after start or after a lost connection; frames are queued,
 * bounded) → `active` (frames flushed) → on loss back to `connecting`; a failed dial makes it
 * `down` (frames dropped at once) until a dial succeeds; `closed` is final.
 *
 * Invariants: at most one socket and at most one dial or retry timer at a time; frames leave
 * the queue in `send` order; a frame is either written once or counted as dropped. Logs are
 * written on transitions only (a peer refusing us or unreachable for minutes logs once).
 */
import { performance } from 'node:perf_hooks';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Counter, Histogram } from 'prom-client';
import { formatId } from '../config/identity.js';
import { backoffDelay } from './backoff.js';
import { dialStream, STREAM_PATH_PREFIX, type Dial, type DialOutcome } from './dial.js';
import type { PeerDialTls } from './peer-request.js';
import { logDialFailure } from './dial-failure-log.js';
import { encodeBatch, encodeControl, FRAME_HEADER_BYTES, FrameDecoder, FrameType } from './frame-codec.js';
import { requestHeaders, type LocalIdentity } from './handshake.js';
import type { PeerMetrics } from './peer-metrics.js';
import { PeerStatus } from './peer-status.js';
import type { PeerStats, PeerTuning } from './types.js';

export interface OutboundContext {
  readonly local: LocalIdentity;
  readonly tuning: PeerTuning;
  /** Bound with `local-member-id`. */
  readonly log: Logger;
  readonly metrics: PeerMetrics;
  readonly now: () => number;
  readonly random: () => number;
  /** Asks the transport to call `flush()` in its next flush turn. */
  readonly schedule: (stream: OutboundStream) => void;
  readonly onUnreachable: (to: bigint) => void;
  readonly onRejected: (to: bigint, status: number, reason: string) => void;
  /** Options for dialling https peer URLs. */
  readonly dialTls: PeerDialTls;
}

const STREAM_TYPE = 'stream Frames';
/** How long a closing stream waits for the peer to close its side before dropping the socket. */
const CLOSE_GRACE_MS = 500;

type State = 'connecting' | 'active' | 'down' | 'closed';

export class OutboundStream {
  readonly peerId: bigint;
  readonly status: PeerStatus;
  readonly #ctx: OutboundContext;
  readonly #peerHex: string;
  readonly #sentBytes: Counter.Internal;
  readonly #sentFailures: Counter.Internal;
  readonly #roundTrip: Histogram.Internal<'To'>;
  #urls: readonly string[];
  #urlIndex = 0;
  #state: State = 'connecting';
  #socket: Socket | undefined;
  #socketUrl: string | undefined;
  #dial: Dial | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #queue: Buffer[] = [];
  #queuedBytes = 0;
  #failures = 0;
  #upAt = 0;
  #lastHeard = 0;
  #pingSeq = 0;
  #pingSentAt = 0;
  #unreachable = false;
  #lastFailure: string | undefined;
  #counters = { framesSent: 0, framesDropped: 0, writes: 0, bytesSent: 0 };

  constructor(peerId: bigint, urls: readonly string[], ctx: OutboundContext) {
    this.peerId = peerId;
    this.#ctx = ctx;
    this.#urls = [...urls];
    this.#peerHex = formatId(peerId);
    this.status = new PeerStatus(ctx.local.localId, peerId, ctx.log, ctx.metrics, ctx.now);
    this.#sentBytes = ctx.metrics.sentBytes.labels(this.#peerHex);
    this.#sentFailures = ctx.metrics.sentFailures.labels(this.#peerHex);
    this.#roundTrip = ctx.metrics.roundTrip.labels(this.#peerHex);
  }

  start(): void {
    this.#connect();
  }

  stats(): Omit<PeerStats, 'framesReceived'> {
    return { active: this.status.active, activeSince: this.status.activeSince, ...this.#counters };
  }

  send(frame: Buffer): void {
    if (this.#state === 'down' || this.#state === 'closed') return this.#drop(1);
    const { maxFrameBytes, maxQueueFrames, maxQueueBytes } = this.#ctx.tuning;
    const buffered = this.#queuedBytes + (this.#socket?.writableLength ?? 0);
    if (frame.length > maxFrameBytes || this.#queue.length >= maxQueueFrames || buffered + frame.length > maxQueueBytes) {
      return this.#drop(1);
    }
    this.#queue.push(frame);
    this.#queuedBytes += frame.length;
    if (this.#queue.length === 1) this.#ctx.schedule(this);
  }

  /**
   * Reports drops and writes everything queued as one write (one `writev` when large payloads
   * are passed uncopied). Called by the transport's flush turn.
   */
  flush(): void {
    if (this.#unreachable) {
      this.#unreachable = false;
      this.#ctx.onUnreachable(this.peerId);
    }
    const socket = this.#socket;
    if (this.#state !== 'active' || socket === undefined || this.#queue.length === 0) return;
    const frames = this.#queue;
    const bytes = this.#queuedBytes + FRAME_HEADER_BYTES * frames.length;
    this.#queue = [];
    this.#queuedBytes = 0;
    const chunks = encodeBatch(frames, this.#ctx.tuning.coalesceBelowBytes);
    if (chunks.length === 1) {
      socket.write(chunks[0] as Buffer);
    } else {
      socket.cork();
      for (const c of chunks) socket.write(c);
      socket.uncork();
    }
    this.#counters.writes++;
    this.#counters.framesSent += frames.length;
    this.#counters.bytesSent += bytes;
    this.#sentBytes.inc(bytes);
  }

  /** The URL of the live connection, else the URL the next dial uses. */
  preferredUrl(): string | undefined {
    return this.#socketUrl ?? this.#urls[this.#urlIndex % Math.max(this.#urls.length, 1)];
  }

  /** Replaces the URLs; a connection to a URL no longer listed is dropped and redialed. */
  updateUrls(urls: readonly string[]): void {
    this.#urls = [...urls];
    this.#urlIndex = 0;
    if (this.#socket !== undefined && this.#socketUrl !== undefined && !urls.includes(this.#socketUrl)) {
      this.#socket.destroy(new Error('peer URLs changed'));
    }
  }

  /**
   * Stops for good; resolves when the socket is closed. Frames still queued on a live
   * connection are written first and the connection is ended (the peer reads them all), with
   * CLOSE_GRACE_MS for the peer to close its side; anything else pending is discarded.
   */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.flush();
    this.#state = 'closed';
    clearTimeout(this.#retryTimer);
    clearInterval(this.#heartbeat);
    const dialing = this.#dial?.abort();
    this.#queue = [];
    this.#queuedBytes = 0;
    this.status.retire();
    const socket = this.#socket;
    this.#socket = undefined;
    if (socket !== undefined && !socket.closed) {
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const grace = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
      socket.end();
      await closed;
      clearTimeout(grace);
    }
    await dialing;
  }

  #connect(): void {
    if (this.#state === 'closed') return;
    const url = this.#urls[this.#urlIndex % Math.max(this.#urls.length, 1)];
    if (url === undefined) {
      this.#failed({ kind: 'Failed', message: 'no peer URLs' });
      return;
    }
    const { local, tuning } = this.#ctx;
    const dial = dialStream(
      url,
      STREAM_PATH_PREFIX + formatId(local.localId),
      requestHeaders(local, this.peerId),
      local.clusterId,
      tuning.dialTimeoutMs,
      this.#ctx.dialTls,
    );
    this.#dial = dial;
    void dial.promise.then((outcome) => {
      if (this.#dial === dial) this.#dial = undefined;
      if (this.#state === 'closed') {
        if (outcome.kind === 'Upgraded') outcome.socket.destroy();
      } else if (outcome.kind === 'Upgraded') {
        this.#attach(outcome.socket, outcome.head, url);
      } else {
        this.#failed(outcome);
      }
    });
  }

  #attach(socket: Socket, head: Buffer, url: string): void {
    const { tuning, now, log } = this.#ctx;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, tuning.heartbeatIntervalMs);
    socket.setTimeout(0);
    this.#socket = socket;
    this.#socketUrl = url;
    this.#state = 'active';
    this.#lastFailure = undefined;
    this.#upAt = now();
    this.#lastHeard = this.#upAt;
    this.status.activate();
    log.debug({ 'stream-writer-type': STREAM_TYPE, 'remote-peer-id': this.#peerHex, address: url }, 'established TCP streaming connection with remote peer');

    const decoder = new FrameDecoder(0);
    let error: Error | undefined;
    const onData = (chunk: Buffer): void => {
      this.#lastHeard = now();
      const out = decoder.push(chunk);
      if (!out.ok || out.data.length > 0) {
        socket.destroy(new Error(`protocol error from peer: ${out.ok ? 'unexpected data frame' : out.reason}`));
        return;
      }
      for (const c of out.control) {
        if (c.type === FrameType.Pong && c.payload.length === 4 && c.payload.readUInt32BE(0) === this.#pingSeq) {
          this.#roundTrip.observe((performance.now() - this.#pingSentAt) / 1000);
        }
      }
    };
    socket.on('data', onData);
    socket.on('error', (e) => {
      error ??= e;
    });
    socket.on('close', () => this.#lost(socket, error));
    this.#heartbeat = setInterval(() => this.#ping(socket), tuning.heartbeatIntervalMs);
    if (head.length > 0) onData(head);
    if (this.#queue.length > 0) this.#ctx.schedule(this);
  }

  #ping(socket: Socket): void {
    const { tuning, now } = this.#ctx;
    const silent = now() - this.#lastHeard;
    if (silent > tuning.idleTimeoutMs) {
      socket.destroy(new Error(`no answer from peer for ${silent}ms`));
      return;
    }
    this.#pingSeq = (this.#pingSeq + 1) >>> 0;
    this.#pingSentAt = performance.now();
    const payload = Buffer.allocUnsafe(4);
    payload.writeUInt32BE(this.#pingSeq, 0);
    socket.write(encodeControl(FrameType.Ping, payload));
  }

  #lost(socket: Socket, error: Error | undefined): void {
    if (socket !== this.#socket) return;
    this.#socket = undefined;
    this.#socketUrl = undefined;
    clearInterval(this.#heartbeat);
    if (this.#state === 'closed') return;
    const reason = error?.message ?? 'connection closed by remote peer';
    this.#ctx.log.warn(
      { 'stream-writer-type': STREAM_TYPE, 'remote-peer-id': this.#peerHex, error: reason },
      'lost TCP streaming connection with remote peer',
    );
    this.status.deactivate('write', reason);
    // Frames still in the socket buffer may be lost: let the user know.
    this.#markUnreachable();
    if (this.#ctx.now() - this.#upAt >= this.#ctx.tuning.backoff.maxMs) this.#failures = 0;
    this.#failures++;
    this.#state = 'connecting';
    this.#scheduleRetry();
  }

  #failed(outcome: Exclude<DialOutcome, { kind: 'Upgraded' }>): void {
    const reason = outcome.kind === 'Rejected' ? `${outcome.status} ${outcome.body}` : outcome.message;
    if (reason !== this.#lastFailure) {
      this.#lastFailure = reason;
      logDialFailure(this.#ctx.log, this.#peerHex, outcome, reason);
      if (outcome.kind === 'Rejected') this.#ctx.onRejected(this.peerId, outcome.status, outcome.body);
    }
    this.#urlIndex++;
    this.#failures++;
    if (this.#state === 'connecting') {
      this.#state = 'down';
      this.#dropQueue();
    }
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    const delay = backoffDelay(this.#ctx.tuning.backoff, this.#failures, this.#ctx.random());
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#connect();
    }, delay);
  }

  #dropQueue(): void {
    const n = this.#queue.length;
    this.#queue = [];
    this.#queuedBytes = 0;
    if (n > 0) this.#drop(n);
  }

  #drop(n: number): void {
    this.#counters.framesDropped += n;
    this.#sentFailures.inc(n);
    this.#markUnreachable();
  }

  #markUnreachable(): void {
    if (this.#unreachable) return;
    this.#unreachable = true;
    this.#ctx.schedule(this);
  }
}

