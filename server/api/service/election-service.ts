/**
 * The Election service (v3electionpb), as etcd 3.4's v3election server: etcd's election recipe
 * (clientv3/concurrency) run on the member's own KV, Lease and Watch services, so a caller's
 * auth applies to each call the recipe makes (the gateway's guarded services).
 *
 * The recipe: a candidate puts `<name>/<lease in hex>` with its value under its lease, if that
 * key does not exist yet (else it takes the existing key over, proclaiming its value); the key
 * with the lowest create revision under `<name>/` leads, and a campaign returns once every key
 * created before its own is deleted. A leader is addressed by its `LeaderKey` (name, key, create
 * revision, lease): proclaim and resign act only while that key still has that create revision.
 *
 * Errors, as etcd answers them: `"leader" field must be provided`, `election: not leader`,
 * `election: no leader`; an error of a call the recipe made travels as `ViaClient` (code Unknown
 * with the call's message, as etcd's in-process client turns statuses into plain errors).
 * A campaign, proclaim or resign without a lease gets a new one of 60 s (the recipe's session
 * default, as etcd's server opens a session for each), never kept alive; a proclaim puts the
 * leader key under its session's lease. A campaign whose caller leaves (`signal`) while it waits resigns.
 */
import type { LeaderKey } from '../../../proto/gen/etcd/election.js';
import type * as epb from '../../../proto/gen/etcd/election.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { err, fail, ok, type Result } from '../../errors/domain-error.js';
import type { KvService, LeaseService, WatchService } from '../services.js';
import { aborted, byCreate, CANCELED, createdAt, deleteOp, getOp, putOp, sessionLease, waitDeletes } from './election-ops.js';
import { observeLeader } from './election-observe.js';

export interface ElectionService {
  campaign(req: epb.CampaignRequest, signal?: AbortSignal): Promise<Result<epb.CampaignResponse>>;
  proclaim(req: epb.ProclaimRequest): Promise<Result<epb.ProclaimResponse>>;
  leader(req: epb.LeaderRequest): Promise<Result<epb.LeaderResponse>>;
  resign(req: epb.ResignRequest): Promise<Result<epb.ResignResponse>>;
  /**
   * Sends the current leader, then each change of it (a new value, a new leader), until `signal`
   * aborts (resolves ok) or a call of the recipe fails.
   */
  observe(req: epb.LeaderRequest, send: (resp: epb.LeaderResponse) => void, signal: AbortSignal): Promise<Result<void>>;
}

export interface ElectionDeps {
  readonly kv: KvService;
  readonly lease: LeaseService;
  readonly watch: WatchService;
}

const prefixOf = (name: Buffer): Buffer => Buffer.concat([name, Buffer.from('/')]);

export function createElectionService(d: ElectionDeps): ElectionService {
  const { kv, lease, watch } = d;
  const via = <T>(r: Result<T>): Result<T> => (r.ok ? r : fail({ kind: 'ViaClient', cause: r.error }));

  /** `Proclaim` of the recipe: put `value` on the leader key while it has create revision `rev`. */
  const proclaimAs = async (key: Buffer, rev: bigint, leaseId: bigint, value: Buffer): Promise<Result<pb.TxnResponse>> => {
    const r = via(await kv.txn({ compare: [createdAt(key, rev)], success: [putOp(key, value, leaseId)], failure: [] }));
    if (!r.ok) return r;
    return r.value.succeeded ? r : err('ElectionNotLeader');
  };

  /** `Resign` of the recipe: delete the leader key while it has create revision `rev`. */
  const resignAs = async (key: Buffer, rev: bigint): Promise<Result<pb.TxnResponse>> =>
    via(await kv.txn({ compare: [createdAt(key, rev)], success: [deleteOp(key)], failure: [] }));

  return {
    async campaign(req, signal) {
      if (aborted(signal)) return fail(CANCELED);
      const leaseId = await sessionLease(lease, req.lease);
      if (!leaseId.ok) return leaseId;
      const prefix = prefixOf(req.name);
      const key = Buffer.concat([prefix, Buffer.from(leaseId.value.toString(16))]);
      const t = via(await kv.txn({ compare: [createdAt(key, 0n)], success: [putOp(key, req.value, leaseId.value)], failure: [getOp(key)] }));
      if (!t.ok) return t;
      let rev = t.value.header?.revision ?? 0n;
      if (!t.value.succeeded) {
        const got = t.value.responses[0]?.response;
        const held = got?.$case === 'responseRange' ? got.value.kvs[0] : undefined;
        if (held !== undefined) {
          rev = held.createRevision;
          if (!held.value.equals(req.value)) {
            const p = await proclaimAs(key, rev, leaseId.value, req.value);
            if (!p.ok) {
              await resignAs(key, rev);
              return p;
            }
          }
        }
      }
      const waited = await waitDeletes(kv, watch, prefix, rev - 1n, signal);
      if (!waited.ok) {
        if (aborted(signal)) await resignAs(key, rev);
        return waited;
      }
      return ok({ header: t.value.header, leader: { name: req.name, key, rev, lease: leaseId.value } });
    },

    async proclaim(req) {
      const l: LeaderKey | undefined = req.leader;
      if (l === undefined) return err('ElectionMissingLeaderKey');
      // The leader's session: a leader key without lease gets a new one, which the key then carries.
      const leaseId = await sessionLease(lease, l.lease);
      if (!leaseId.ok) return leaseId;
      const p = await proclaimAs(l.key, l.rev, leaseId.value, req.value);
      return p.ok ? ok({ header: p.value.header }) : p;
    },

    async leader(req) {
      const r = via(await kv.range(byCreate(prefixOf(req.name), pb.RangeRequest_SortOrder.ASCEND)));
      if (!r.ok) return r;
      const first = r.value.kvs[0];
      return first === undefined ? err('ElectionNoLeader') : ok({ header: r.value.header, kv: first });
    },

    async resign(req) {
      const l = req.leader;
      if (l === undefined) return err('ElectionMissingLeaderKey');
      const leaseId = await sessionLease(lease, l.lease);
      if (!leaseId.ok) return leaseId;
      const r = await resignAs(l.key, l.rev);
      return r.ok ? ok({ header: r.value.header }) : r;
    },

    observe: (req, send, signal) => observeLeader(d, prefixOf(req.name), send, signal),
  };
}
