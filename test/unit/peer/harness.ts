/**
 * Test harness for the peer transport: real transports on loopback (127.0.0.x, port 0),
 * captured log lines, a recording handler set, bounded waits, and raw HTTP helpers.
 */
import { request } from 'node:http';
import { Registry } from 'prom-client';
import { createLogger } from '../../../server/log/logger.js';
import { ok, type Result } from '../../../server/errors/domain-error.js';
import { createPeerTransport, type PeerHandlers, type PeerTransport, type PeerTuning } from '../../../server/peer/index.js';
import type { PeerTls } from '../../../server/peer/types.js';

export type LogLine = Record<string, unknown> & { level: string; msg: string };

export function captureLogs() {
  const lines: LogLine[] = [];
  const destination = { write: (s: string) => void lines.push(JSON.parse(s) as LogLine) };
  const logger = createLogger({ level: 'debug', outputs: [], destination });
  return { logger, lines, find: (msg: string) => lines.filter((l) => l.msg === msg) };
}

/** Polls `cond` every few ms until it holds; throws after `ms` (a bound, not a timing assertion). */
export async function waitUntil(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Like waitUntil, for a condition that has to await. */
export async function waitUntilAsync(cond: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Recorder extends PeerHandlers {
  readonly frames: Map<bigint, Buffer[]>;
  readonly calls: Map<bigint, number>;
  readonly unreachable: bigint[];
  readonly rejected: { to: bigint; status: number; reason: string }[];
}

export function recorder(onSnapshot?: PeerHandlers['onSnapshot']): Recorder {
  const frames = new Map<bigint, Buffer[]>();
  const calls = new Map<bigint, number>();
  const unreachable: bigint[] = [];
  const rejected: { to: bigint; status: number; reason: string }[] = [];
  return {
    frames,
    calls,
    unreachable,
    rejected,
    onFrames(from, fs) {
      const list = frames.get(from) ?? [];
      for (const f of fs) list.push(Buffer.from(f));
      frames.set(from, list);
      calls.set(from, (calls.get(from) ?? 0) + 1);
    },
    onSnapshot:
      onSnapshot ??
      (async (_from, _meta, body): Promise<Result<void>> => {
        for await (const _chunk of body) {
          // drain
        }
        return ok(undefined);
      }),
    onUnreachable(to) {
      unreachable.push(to);
    },
    onRejected(to, status, reason) {
      rejected.push({ to, status, reason });
    },
  };
}

export const FAST: Partial<PeerTuning> = {
  heartbeatIntervalMs: 200,
  idleTimeoutMs: 2_000,
  dialTimeoutMs: 1_000,
  backoff: { initialMs: 20, maxMs: 200 },
};

export interface Member {
  readonly id: bigint;
  readonly transport: PeerTransport;
  readonly handlers: Recorder;
  readonly logs: ReturnType<typeof captureLogs>;
  readonly registry: Registry;
  url(): string;
}

export interface MemberOptions {
  readonly id: bigint;
  readonly host: string;
  readonly port?: number;
  readonly clusterId?: bigint;
  readonly handlers?: Recorder;
  readonly tuning?: Partial<PeerTuning>;
  readonly serverVersion?: string;
  readonly minClusterVersion?: string;
  readonly members?: () => unknown;
  /** Peer TLS: the listener serves https and dials use it. */
  readonly tls?: PeerTls;
}

export async function startMember(o: MemberOptions): Promise<Member> {
  const logs = captureLogs();
  const registry = new Registry();
  const handlers = o.handlers ?? recorder();
  const transport = createPeerTransport({
    localId: o.id,
    clusterId: o.clusterId ?? 0xc1n,
    listenUrls: [`${o.tls?.accept !== undefined ? 'https' : 'http'}://${o.host}:${o.port ?? 0}`],
    serverVersion: o.serverVersion ?? '3.4.45',
    minClusterVersion: o.minClusterVersion ?? '3.0.0',
    handlers,
    version: () => ({ etcdserver: '3.4.45', etcdcluster: '3.4.0' }),
    members: o.members ?? (() => []),
    logger: logs.logger,
    registry,
    tuning: { ...FAST, ...o.tuning },
    tls: o.tls,
  });
  await transport.start();
  return { id: o.id, transport, handlers, logs, registry, url: () => transport.boundUrls()[0] as string };
}

/** Starts members on 127.0.0.<10+i> and makes every one a peer of every other. */
export async function startCluster(ids: readonly bigint[], o: Partial<MemberOptions> = {}): Promise<Member[]> {
  const members: Member[] = [];
  for (const [i, id] of ids.entries()) members.push(await startMember({ ...o, id, host: `127.0.0.${10 + i}` }));
  for (const m of members) for (const p of members) if (p !== m) m.transport.addPeer(p.id, [p.url()]);
  return members;
}

export async function waitConnected(members: readonly Member[]): Promise<void> {
  await waitUntil(
    () => members.every((m) => members.every((p) => p === m || m.transport.activeSince(p.id) !== undefined)),
    'all members connected',
  );
}

export interface RawAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** One HTTP request with its own connection; an upgrade answer resolves with status 101. */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<RawAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: Number(u.port), method, path, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), headers: res.headers }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '', headers: res.headers });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Handshake headers as a member `from` of cluster `cluster` would send them to `to`. */
export function streamHeaders(from: bigint, to: bigint, cluster = 0xc1n, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'x-server-from': from.toString(16),
    'x-server-version': '3.4.45',
    'x-min-cluster-version': '3.0.0',
    'x-etcd-cluster-id': cluster.toString(16),
    'x-peerurls': 'http://127.0.0.99:2380',
    'x-raft-to': to.toString(16),
    connection: 'Upgrade',
    upgrade: 'kvstore-raft-frames',
    ...extra,
  };
}

export async function closeAll(members: readonly Member[]): Promise<void> {
  await Promise.all(members.map((m) => m.transport.close()));
}

/** Kinds of handles that keep the process alive and that a closed transport must not leave behind. */
export function liveHandles(): string[] {
  return process.getActiveResourcesInfo().filter((k) => k === 'TCPSocketWrap' || k === 'TCPServerWrap' || k === 'Timeout' || k === 'Immediate');
}
