/**
 * The peer transport: one outbound stream per peer (we dial, we write), at most one inbound
 * stream per peer (they dial, we read), snapshots on their own connections, and the peer HTTP
 * listener (`/raft/stream/frames/<id>`, `/raft/snapshot`, `/version`, `/members`, extra routes).
 * Contract in types.ts, wire format in FORMAT.md.
 *
 * Batching: `send` only queues; one `setImmediate` per event-loop turn flushes every peer that
 * has queued frames (one socket write each) and delivers pending `onUnreachable` reports.
 * `flush()` does the same at once (the member calls it after handing over a Ready's messages,
 * so they do not wait for the turn to end).
 *
 * Ownership: everything (timers, sockets, servers) belongs to this object and is released by
 * `close()`; nothing is module-level.
 */
import type { Socket } from 'node:net';
import { formatId } from '../config/identity.js';
import { describePeerError, peerFail, peerOk, type PeerResult } from './errors.js';
import { STREAM_PATH_PREFIX, SNAPSHOT_PATH } from './dial.js';
import { PeerHeader, requestHeaders, type LocalIdentity, type MembershipView } from './handshake.js';
import { InboundStream } from './inbound-stream.js';
import { OutboundStream, type OutboundContext } from './outbound-stream.js';
import { createPeerMetrics } from './peer-metrics.js';
import { listenPeers, type PeerListener } from './peer-listener.js';
import { PeerRouter } from './routes.js';
import { receiveSnapshot } from './snapshot-receive.js';
import { streamSnapshot } from './snapshot-send.js';
import { acceptStream } from './stream-accept.js';
import { DEFAULT_PEER_TUNING, type PeerStats, type PeerTransport, type PeerTransportOptions, type PeerTuning } from './types.js';

const MAX_SNAPSHOT_META_BYTES = 16 * 1024 * 1024;

export function createPeerTransport(options: PeerTransportOptions): PeerTransport {
  const tuning: PeerTuning = { ...DEFAULT_PEER_TUNING, ...options.tuning };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const localHex = formatId(options.localId);
  const log = options.logger.child({ component: 'peer', 'local-member-id': localHex });
  const metrics = createPeerMetrics(options.registry);
  const handlers = options.handlers;
  let advertise: readonly string[] = options.advertiseUrls ?? [];
  const local: LocalIdentity = {
    localId: options.localId,
    clusterId: options.clusterId,
    serverVersion: options.serverVersion,
    minClusterVersion: options.minClusterVersion,
    get advertiseUrls() {
      return advertise;
    },
  };

  const peers = new Map<bigint, OutboundStream>();
  const removed = new Set<bigint>();
  const inbound = new Map<bigint, InboundStream>();
  const framesReceived = new Map<bigint, number>();
  const releasing = new Set<Promise<unknown>>();
  const snapshotAbort = new AbortController();
  const view: MembershipView = { isPeer: (id) => peers.has(id), isRemoved: (id) => removed.has(id) };
  let listener: PeerListener | undefined;
  let closed: Promise<void> | undefined;

  // One flush turn per event-loop turn for every peer with queued frames or drops to report.
  let dirty = new Set<OutboundStream>();
  let flushTurn: NodeJS.Immediate | undefined;
  const flushAll = (): void => {
    flushTurn = undefined;
    const list = dirty;
    dirty = new Set();
    for (const stream of list) stream.flush();
  };
  const track = (p: Promise<unknown>): void => {
    releasing.add(p);
    void p.finally(() => releasing.delete(p));
  };
  const guard = (what: string, fn: () => void): void => {
    try {
      fn();
    } catch (e) {
      log.error({ error: e instanceof Error ? e.message : String(e) }, `${what} handler threw`);
    }
  };

  const outboundContext: OutboundContext = {
    local,
    tuning,
    log,
    metrics,
    now,
    random,
    schedule(stream) {
      if (closed !== undefined) return;
      dirty.add(stream);
      flushTurn ??= setImmediate(flushAll);
    },
    onUnreachable: (to) => guard('onUnreachable', () => handlers.onUnreachable(to)),
    onRejected: (to, status, reason) => guard('onRejected', () => handlers.onRejected?.(to, status, reason)),
    dialTls: options.tls?.dial,
  };

  const accepted = (from: bigint, socket: Socket, head: Buffer): void => {
    if (closed !== undefined) {
      socket.destroy();
      return;
    }
    // Stop the older stream first, so its late bytes can never follow the new stream's.
    const old = inbound.get(from);
    if (old !== undefined) track(old.close());
    const fromHex = formatId(from);
    const stream = new InboundStream(from, socket, head, {
      maxFrameBytes: tuning.maxFrameBytes,
      idleTimeoutMs: tuning.idleTimeoutMs,
      keepAliveMs: tuning.heartbeatIntervalMs,
      log,
      receivedBytes: metrics.receivedBytes.labels(fromHex),
      receivedFailures: metrics.receivedFailures.labels(fromHex),
      deliver: (sender, frames) => {
        framesReceived.set(sender, (framesReceived.get(sender) ?? 0) + frames.length);
        guard('onFrames', () => handlers.onFrames(sender, frames));
      },
      closed: (s) => {
        if (inbound.get(s.from) === s) inbound.delete(s.from);
      },
    });
    inbound.set(from, stream);
  };

  const router = new PeerRouter(log);
  router.addUpgrade(STREAM_PATH_PREFIX, (req, socket, head) => acceptStream(req, socket, head, { local, view, log, accepted }));
  router.add({
    method: 'POST',
    path: SNAPSHOT_PATH,
    manualContinue: true,
    handle: (req, res) =>
      receiveSnapshot(req, res, { local, view, log, metrics, maxMetaBytes: MAX_SNAPSHOT_META_BYTES, onSnapshot: handlers.onSnapshot }),
  });
  router.add({
    method: 'GET',
    path: '/version',
    handle: (_req, res) => {
      const v = options.version();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ etcdserver: v.etcdserver, etcdcluster: v.etcdcluster }));
    },
  });
  router.add({
    method: 'GET',
    path: '/members',
    handle: (_req, res) => {
      const body = exactJson(options.members());
      res.writeHead(200, { 'content-type': 'application/json', [PeerHeader.ClusterId]: formatId(options.clusterId) });
      res.end(body);
    },
  });

  async function sendSnapshot(to: bigint, meta: Buffer, body: AsyncIterable<Buffer>): Promise<PeerResult<void>> {
    if (closed !== undefined) return peerFail({ kind: 'Stopped' });
    const peer = peers.get(to);
    if (peer === undefined) return peerFail({ kind: 'PeerNotFound', peerId: to });
    const url = peer.preferredUrl();
    if (url === undefined) return peerFail({ kind: 'Unreachable', message: 'no peer URLs' });
    const labels = { To: formatId(to) };
    const started = process.hrtime.bigint();
    metrics.snapshotSendInflights.inc(labels);
    const sending = streamSnapshot({
      url,
      headers: requestHeaders(local, to),
      meta,
      body,
      idleTimeoutMs: tuning.snapshotIdleTimeoutMs,
      signal: snapshotAbort.signal,
      tls: options.tls?.dial,
    });
    track(sending);
    const result = await sending;
    metrics.snapshotSendInflights.dec(labels);
    if (!result.ok) {
      metrics.snapshotSendFailures.inc(labels);
      log.warn({ 'remote-peer-id': labels.To, error: describePeerError(result.error) }, 'failed to send database snapshot');
      return result;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.snapshotSendSuccess.inc(labels);
    metrics.snapshotSendDuration.observe(labels, seconds);
    log.info({ 'remote-peer-id': labels.To, size: result.value, took: `${seconds}s` }, 'sent database snapshot');
    return peerOk(undefined);
  }

  return {
    async start() {
      if (listener !== undefined || closed !== undefined) return;
      listener = await listenPeers(options.listenUrls, router, log, options.tls?.accept);
      if (options.advertiseUrls === undefined) advertise = listener.urls;
    },
    boundUrls: () => listener?.urls ?? [],
    addPeer(id, urls) {
      if (closed !== undefined) return;
      const known = peers.get(id);
      if (known !== undefined) {
        known.updateUrls(urls);
        return;
      }
      removed.delete(id);
      const stream = new OutboundStream(id, urls, outboundContext);
      peers.set(id, stream);
      stream.start();
    },
    updatePeer(id, urls) {
      peers.get(id)?.updateUrls(urls);
    },
    removePeer(id) {
      removed.add(id);
      const stream = peers.get(id);
      if (stream !== undefined) {
        peers.delete(id);
        dirty.delete(stream);
        track(stream.close());
      }
      const incoming = inbound.get(id);
      if (incoming !== undefined) track(incoming.close());
    },
    send(to, frame) {
      const stream = peers.get(to);
      if (stream !== undefined) stream.send(frame);
      else metrics.sentFailures.inc({ To: formatId(to) });
    },
    flush() {
      if (flushTurn === undefined) return;
      clearImmediate(flushTurn);
      flushAll();
    },
    sendSnapshot,
    activeSince: (id) => peers.get(id)?.status.activeSince,
    stats(id): PeerStats | undefined {
      const stream = peers.get(id);
      return stream === undefined ? undefined : { ...stream.stats(), framesReceived: framesReceived.get(id) ?? 0 };
    },
    route: (route) => router.add(route),
    close() {
      closed ??= (async () => {
        if (flushTurn !== undefined) clearImmediate(flushTurn);
        dirty.clear();
        snapshotAbort.abort();
        const all: Promise<unknown>[] = [...releasing];
        for (const stream of peers.values()) all.push(stream.close());
        for (const stream of inbound.values()) all.push(stream.close());
        if (listener !== undefined) all.push(listener.close());
        await Promise.all(all);
      })();
      return closed;
    },
  };
}

/** JSON in which bigint values are written as exact decimal numbers (64-bit member ids). */
function exactJson(value: unknown): string {
  const marker = '\u0000big:';
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${marker}${v.toString()}` : v));
  return text.replace(/"\\u0000big:(\d+)"/g, '$1');
}
