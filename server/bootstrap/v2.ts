/**
 * The v2 key space of a member: loaded from the backend, changed only through the log
 * (v2 requests; the leader's clock syncs expire TTL keys at the same log position on every
 * member), served on /v2/keys and /v2/members with --enable-v2, and measured by the gauge
 * `kvstore_v2_store_size_bytes` (kvstore's own metric: the operator paces upgrades by it).
 */
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { Result } from '../errors/domain-error.js';
import { ok } from '../errors/domain-error.js';
import { V2_KEY } from '../apply/applier.js';
import { formatId } from '../config/index.js';
import type { Member } from '../member/member.js';
import type { Membership, MemberRecord } from '../membership/membership.js';
import type { ClusterService } from '../api/services.js';
import { Bucket, type Backend } from '../storage/backend.js';
import { encodeV2Request, V2Store, type V2Error, type V2Event } from '../v2store/index.js';
import type { V2Member, V2Port } from '../api/http/v2/port.js';
import type { V2AuthAccess } from '../api/http/v2/auth-access.js';
import { httpClientChainCommonNames } from '../tls/client-identity.js';
import { V2AuthStore } from '../v2auth/store.js';
import bcrypt from 'bcryptjs';

export async function loadV2Store(backend: Backend): Promise<V2Store> {
  const raw = await backend.get(Bucket.Cluster, V2_KEY);
  return raw === undefined ? new V2Store() : V2Store.fromJSON(JSON.parse(raw.toString('utf8')));
}

const toV2Member = (m: MemberRecord): V2Member => ({ id: formatId(m.id), name: m.name, peerURLs: m.peerURLs, clientURLs: m.clientURLs });

export function v2Port(d: { v2: V2Store; member: Member; membership: Membership; cluster: ClusterService; now: () => number }): V2Port {
  return {
    async propose(req): Promise<Result<V2Event | V2Error>> {
      const res = await d.member.propose({ $case: 'v2Request', value: Buffer.from(encodeV2Request(req)) });
      return res.ok ? ok(res.value.response as V2Event | V2Error) : res;
    },
    read: (path, opts) => {
      const r = d.v2.get(path, opts, d.now());
      return r.ok ? r.value : r.error;
    },
    watch: (path, opts, onEvent) => {
      const r = d.v2.watch(path, opts, onEvent);
      return r.ok ? r.value : r.error;
    },
    index: () => d.v2.index(),
    clusterIdHex: formatId(d.member.clusterId),
    raftIndex: () => BigInt(d.member.committedIndex),
    raftTerm: () => BigInt(d.member.term),
    members: () => d.membership.list().map(toV2Member),
    leader: () => {
      const m = d.membership.get(d.member.leaderId);
      return m ? toV2Member(m) : undefined;
    },
    async addMember(peerURLs) {
      const r = await d.cluster.memberAdd({ peerURLs: [...peerURLs], isLearner: false });
      return r.ok ? ok({ id: formatId(r.value.member!.ID), name: '', peerURLs, clientURLs: [] }) : r;
    },
    async removeMember(id) {
      if (d.membership.isRemoved(id)) return { ok: false, error: { kind: 'MemberRemoved' } };
      const r = await d.cluster.memberRemove({ ID: id });
      return r.ok ? ok(undefined) : r;
    },
    async updateMember(id, peerURLs) {
      if (d.membership.isRemoved(id)) return { ok: false, error: { kind: 'MemberRemoved' } };
      const r = await d.cluster.memberUpdate({ ID: id, peerURLs: [...peerURLs] });
      return r.ok ? ok(undefined) : r;
    },
  };
}

/**
 * The v2 auth store over the v2 port (built once per member: it remembers that its auth
 * directories exist) and how a request's user is found. Passwords are hashed with bcrypt at
 * Go's default cost 10, as etcd's v2 auth does (not `--bcrypt-cost`, which is v3's), with Go's
 * `$2a$` prefix.
 */
export function v2AuthAccess(port: V2Port, clientCertAuth: boolean, capable: () => boolean): V2AuthAccess {
  const store = new V2AuthStore(
    { read: (path) => port.read(path, { recursive: false, sorted: false }), propose: (req) => port.propose(req) },
    {
      hash: async (password) => (await bcrypt.hash(password, 10)).replace(/^\$2b\$/, '$2a$'),
      compare: (password, hash) => bcrypt.compare(password, hash),
    },
  );
  return { store, clientCertAuth, commonNames: httpClientChainCommonNames, capable };
}

/** The size gauge and, on the leader, the expiry clock: returns a stopper. */
export function startV2Upkeep(d: { v2: V2Store; member: Member; registry: Registry; now: () => number; logger: Logger }): () => void {
  const gauge = new Gauge({ name: 'kvstore_v2_store_size_bytes', help: 'Size of the v2 key space in bytes (kvstore).', registers: [d.registry] });
  gauge.set(d.v2.sizeBytes());
  let syncing = false;
  const timer = setInterval(() => {
    gauge.set(d.v2.sizeBytes());
    const due = d.v2.nextExpiration();
    if (syncing || !d.member.isLeader || due === undefined || due > d.now()) return;
    syncing = true;
    void d.member
      .propose({ $case: 'v2Sync', value: BigInt(d.now()) })
      .then((r) => {
        if (!r.ok) d.logger.debug({ error: r.error.kind }, 'v2 expiry sync failed');
      })
      .finally(() => (syncing = false));
  }, 500);
  timer.unref();
  return () => clearInterval(timer);
}
