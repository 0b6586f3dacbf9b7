/**
 * Wires the member to its peers: consensus messages travel as transport frames; the set of
 * peers follows the member list (checked after every applied batch, reconciled only when the
 * list's generation moved: added, re-addressed or removed members); the peer listener answers /version, /members and the leader-only
 * lease requests that followers forward.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import * as pb from '../../proto/gen/etcd/rpc.js';
import { LEASE_KEEPALIVE_PATH, LEASE_TTL_PATH } from '../api/service/leader-forward.js';
import type { LeaseReader } from '../api/service/lease-reader.js';
import { formatId } from '../config/index.js';
import type { Member } from '../member/member.js';
import { decodeMessage } from '../member/message-codec.js';
import type { Membership } from '../membership/membership.js';
import type { MvccStore } from '../mvcc/types.js';
import { createPeerTransport, type PeerTransport, type VersionInfo } from '../peer/index.js';
import type { PeerTls } from '../peer/types.js';
import type { Result } from '../errors/domain-error.js';

export interface PeersDeps {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  readonly listenUrls: readonly string[];
  readonly advertiseUrls: readonly string[];
  readonly serverVersion: string;
  readonly version: () => VersionInfo;
  readonly membership: Membership;
  readonly member: () => Member;
  readonly leases: LeaseReader;
  readonly store: MvccStore;
  readonly now: () => number;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly tls?: PeerTls;
  /** This member was removed from the cluster. */
  readonly onRemoved: () => void;
  /** Receives a state image from the leader (see snapshot-exchange.ts). */
  readonly onSnapshot: (from: bigint, meta: Buffer, body: AsyncIterable<Buffer>) => Promise<Result<void>>;
}

export interface Peers {
  readonly transport: PeerTransport;
  /** Brings the transport's peer set in line with the member list. */
  reconcile(): void;
  /** Peer URL of `id` (first one), if it is a member. */
  peerUrl(id: bigint): string | undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startPeers(d: PeersDeps): Promise<Peers> {
  const log = d.logger;
  const transport = createPeerTransport({
    localId: d.memberId,
    clusterId: d.clusterId,
    listenUrls: d.listenUrls,
    advertiseUrls: d.advertiseUrls,
    serverVersion: d.serverVersion,
    minClusterVersion: '3.0.0',
    tls: d.tls,
    handlers: {
      onFrames: (_from, frames) => {
        for (const f of frames) {
          const m = decodeMessage(f);
          if (m.ok) d.member().receive(m.value);
          else log.warn({ error: m.error }, 'dropped a malformed peer message');
        }
      },
      onSnapshot: (from, meta, body) => d.onSnapshot(from, meta, body),
      onUnreachable: (to) => d.member().unreachable(to),
      onRejected: (to, status) => {
        if (status === 410) d.onRemoved();
        else log.debug({ 'peer-id': formatId(to), status }, 'peer refused our stream');
      },
    },
    version: d.version,
    members: () =>
      d.membership.list().map((m) => ({ id: m.id, peerURLs: m.peerURLs, name: m.name, clientURLs: m.clientURLs, ...(m.isLearner ? { isLearner: true } : {}) })),
    logger: log,
    registry: d.registry,
    now: d.now,
  });

  const leaderOnly = <Req, Res>(
    decode: (b: Uint8Array) => Req,
    answer: (r: Req) => Res,
    encode: (r: Res) => { finish(): Uint8Array },
  ) =>
    async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
      const body = await readBody(req);
      if (!d.member().isLeader) {
        res.writeHead(503).end('not leader');
        return;
      }
      const out = Buffer.from(encode(answer(decode(body))).finish());
      res.writeHead(200, { 'content-type': 'application/protobuf', 'content-length': out.length }).end(out);
    };
  transport.route({
    method: 'POST',
    path: LEASE_KEEPALIVE_PATH,
    handle: leaderOnly(
      (b) => pb.LeaseKeepAliveRequest.decode(b),
      (r): pb.LeaseKeepAliveResponse => ({ header: undefined, ID: r.ID, TTL: d.leases.renew(r.ID, d.now()) }),
      (r) => pb.LeaseKeepAliveResponse.encode(r),
    ),
  });
  transport.route({
    method: 'POST',
    path: LEASE_TTL_PATH,
    handle: leaderOnly(
      (b) => pb.LeaseTimeToLiveRequest.decode(b),
      (r): pb.LeaseTimeToLiveResponse => {
        const t = d.leases.timeToLive(r.ID, d.now());
        if (t === undefined) return { header: undefined, ID: r.ID, TTL: -1n, grantedTTL: 0n, keys: [] };
        return { header: undefined, ID: r.ID, TTL: t.ttl, grantedTTL: t.grantedTTL, keys: r.keys ? [...t.keys] : [] };
      },
      (r) => pb.LeaseTimeToLiveResponse.encode(r),
    ),
  });
  await transport.start();

  const known = new Map<bigint, string>();
  let seen = -1;
  const reconcile = (): void => {
    // Called after every applied batch: a put batch leaves the list alone, so this is one compare.
    if (d.membership.generation === seen) return;
    seen = d.membership.generation;
    const wanted = new Map(d.membership.list().filter((m) => m.id !== d.memberId).map((m) => [m.id, m.peerURLs] as const));
    for (const [id, urls] of wanted) {
      const key = urls.join(',');
      const had = known.get(id);
      if (had === undefined) transport.addPeer(id, urls);
      else if (had !== key) transport.updatePeer(id, urls);
      known.set(id, key);
    }
    for (const id of [...known.keys()]) {
      if (wanted.has(id)) continue;
      transport.removePeer(id);
      known.delete(id);
    }
    if (d.membership.isRemoved(d.memberId)) d.onRemoved();
  };
  reconcile();
  return { transport, reconcile, peerUrl: (id) => d.membership.get(id)?.peerURLs[0] };
}
