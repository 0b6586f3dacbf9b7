/**
 * The apply step: turns one committed InternalRequest into its effects on the MVCC store,
 * the lessor and the alarm set, in log order. Deterministic: the same log applied on any
 * member yields the same state (time enters only as the entry's `nowMs`, used for lease
 * deadlines that only the leader acts on).
 *
 * While auth is enabled, a request whose header names its caller is checked again against
 * the auth state as of its entry (auth/apply-check.ts) before it applies.
 *
 * Effects outside the state machine are reported through callbacks (watch events,
 * compaction) and `takeBackendOps()` (lease/alarm records for the next backend flush).
 */
import type { ConfChangeContext, InternalRequest } from '../../proto/gen/kvstore/internal.js';
import type { Membership } from '../membership/membership.js';
import type { ClusterVersionState } from '../clusterversion/cluster-version-state.js';
import { decodeV2Request, V2Store } from '../v2store/index.js';
import { Bucket } from '../storage/backend.js';
import { ConfChangeType, type ConfChange } from '../raft/index.js';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { err, fail, ok, type Result } from '../errors/domain-error.js';
import type { Event, MvccStore } from '../mvcc/types.js';
import type { BackendOp } from '../storage/backend.js';
import type { AlarmSet } from './alarms.js';
import { applyDeleteRange, applyPut, type TxnView } from './kv-ops.js';
import { AlarmType, type LeasePort } from './ports.js';
import { applyTxn, checkPutAgainstState, txnHasPut } from './txn.js';
import { AuthStore } from '../auth/auth-store.js';
import { applyAuth, isAuthRequest, type AuthApplyPort } from './auth-apply.js';
import { checkProposal } from '../auth/apply-check.js';
import { recordAttributes, recordClusterVersion, recordMemberAdded, recordMemberRemoved, recordPeerUrls } from './v2-cluster-keys.js';

const NO_LEASE_KEYS = (): readonly Buffer[] => [];

export interface ApplierDeps {
  readonly store: MvccStore;
  readonly leases: LeasePort;
  readonly alarms: AlarmSet;
  readonly membership: Membership;
  readonly clusterVersion: ClusterVersionState;
  /** The v2 key space (persisted as one JSON record when it changed); default: a new empty one. */
  readonly v2?: V2Store;
  /** The auth store and this member's simple tokens; default: a new store, no tokens. */
  readonly auth?: AuthApplyPort;
  /** The cluster version changed (from undefined on the first decision), as major.minor. */
  readonly onClusterVersion?: (from: string | undefined, to: string) => void;
  /** A member published its attributes, or a membership change was applied. */
  readonly onMembersChanged?: () => void;
  /** Called once per write that changed the store, in revision order. */
  readonly onEvents: (revision: bigint, events: Event[]) => void;
  readonly onCompacted: (revision: bigint) => void;
}

/** The response message of the applied request (its type follows the request kind). */
export interface Applied {
  readonly response: unknown;
  /** Compaction: resolves when the physical deletion finished. */
  readonly done?: Promise<void>;
}

/** Where the v2 key space is persisted (bucket `cluster`). */
export const V2_KEY = Buffer.from('v2store');

const ALARM_ACTIVATE = 1;
const ALARM_DEACTIVATE = 2;

export class Applier {
  readonly #deps: ApplierDeps & { readonly v2: V2Store; readonly auth: AuthApplyPort };
  #backendOps: BackendOp[] = [];
  #v2Dirty = false;

  constructor(deps: ApplierDeps) {
    this.#deps = { ...deps, v2: deps.v2 ?? new V2Store(), auth: deps.auth ?? { store: new AuthStore() } };
  }

  /** Lease and alarm records changed since the last call. */
  takeBackendOps(): BackendOp[] {
    if (this.#v2Dirty) {
      this.#v2Dirty = false;
      this.#backendOps.push({ type: 'put', bucket: Bucket.Cluster, key: V2_KEY, value: Buffer.from(JSON.stringify(this.#deps.v2.toJSON())) });
    }
    const ops = this.#backendOps;
    this.#backendOps = [];
    return ops;
  }

  async apply(req: InternalRequest, nowMs: number): Promise<Result<Applied>> {
    const r = req.request;
    if (r === undefined) return ok({ response: undefined });
    const { alarms } = this.#deps;
    if (alarms.has(AlarmType.Corrupt) && r.$case !== 'alarm') return err('Corrupt');
    const capped = alarms.has(AlarmType.NoSpace);
    const { auth } = this.#deps;
    // Re-checked only while auth is enabled and the proposer named the caller (one boolean when disabled).
    if (auth.store.enabled && req.header !== undefined && req.header.authRevision !== 0n) {
      const denied = checkProposal(auth.store, req.header, r, auth.leaseKeys ?? NO_LEASE_KEYS);
      if (denied !== undefined) return fail(denied);
    }
    if (isAuthRequest(r)) {
      const res = applyAuth(this.#deps.auth, r, header(this.#deps.store.currentRevision));
      if (!res.ok) return res;
      this.#backendOps.push(...res.value.ops);
      return ok({ response: res.value.response });
    }
    switch (r.$case) {
      case 'put':
        if (capped) return err('NoSpace');
        return this.#write((v) => {
          const e = checkPutAgainstState(v.txn, r.value, this.#deps.leases);
          return e ? fail(e) : ok(applyPut(v, r.value, this.#deps.leases));
        });
      case 'deleteRange':
        return this.#write((v) => ok(applyDeleteRange(v, r.value, this.#deps.leases)));
      case 'txn':
        if (capped && txnHasPut(r.value)) return err('NoSpace');
        return this.#write((v) => applyTxn(v, r.value, this.#deps.leases, this.#deps.store.compactRevision));
      case 'compaction':
        return this.#compact(r.value);
      case 'leaseGrant':
        if (capped) return err('NoSpace');
        return this.#leaseGrant(r.value, nowMs);
      case 'leaseRevoke':
        return this.#leaseRevoke(r.value);
      case 'alarm':
        return ok({ response: this.#alarm(r.value) });
      case 'memberUpdate':
        this.#recordV2(() => recordPeerUrls(this.#deps.v2, r.value.ID, r.value.peerURLs));
        this.#backendOps.push(...this.#deps.membership.updatePeerUrls(r.value.ID, r.value.peerURLs));
        return ok({ response: undefined });
      case 'memberAttributes':
        this.#recordV2(() => recordAttributes(this.#deps.v2, r.value.id, r.value.name, r.value.clientUrls));
        this.#backendOps.push(...this.#deps.membership.setAttributes(r.value.id, r.value.name, r.value.clientUrls));
        this.#deps.onMembersChanged?.();
        return ok({ response: undefined });
      case 'clusterVersionSet': {
        const changed = this.#deps.clusterVersion.set(r.value.ver);
        if (changed) this.#recordV2(() => recordClusterVersion(this.#deps.v2, `${this.#deps.clusterVersion.current!}.0`));
        if (changed && changed.previous !== this.#deps.clusterVersion.current) {
          this.#backendOps.push(changed.op);
          this.#deps.onClusterVersion?.(changed.previous, this.#deps.clusterVersion.current!);
        }
        return ok({ response: undefined });
      }
      case 'v2Request': {
        const req = decodeV2Request(r.value);
        if (req.method !== 'GET') this.#v2Dirty = true;
        const res = this.#deps.v2.apply(req, nowMs);
        return ok({ response: res.ok ? res.value : res.error });
      }
      case 'v2Sync':
        if (this.#deps.v2.deleteExpired(Number(r.value)).length > 0) this.#v2Dirty = true;
        return ok({ response: undefined });
      case 'leaseCheckpoint':
        return ok({ response: this.#leaseCheckpoint(r.value) });
      case 'range':
        return ok({ response: undefined });
    }
  }

  /**
   * Applies a committed membership change to the member list (the caller applies it to the
   * consensus core too). AddNode of an existing learner promotes it.
   */
  applyConfChange(cc: ConfChange, context: ConfChangeContext | undefined): void {
    const { membership, v2 } = this.#deps;
    if (cc.type === ConfChangeType.RemoveNode) {
      this.#recordV2(() => recordMemberRemoved(v2, cc.nodeId));
      this.#backendOps.push(...membership.remove(cc.nodeId));
      this.#deps.onMembersChanged?.();
      return;
    }
    const m = context?.member;
    const isLearner = cc.type === ConfChangeType.AddLearnerNode;
    this.#recordV2(() => recordMemberAdded(v2, cc.nodeId, m?.peerURLs ?? [], isLearner));
    this.#backendOps.push(
      ...membership.add({
        id: cc.nodeId,
        name: m?.name ?? '',
        peerURLs: m?.peerURLs ?? [],
        clientURLs: m?.clientURLs ?? [],
        isLearner,
      }),
    );
    this.#deps.onMembersChanged?.();
  }

  /** A write of the cluster's own records into the v2 store (v2-cluster-keys.ts). */
  #recordV2(write: () => void): void {
    write();
    this.#v2Dirty = true;
  }

  async #write<T extends { header?: pb.ResponseHeader | undefined }>(
    body: (v: TxnView) => Result<T> | Promise<Result<T>>,
  ): Promise<Result<Applied>> {
    const txn = this.#deps.store.beginWrite();
    const view: TxnView = { txn, wrote: false, touchedLeases: new Set() };
    const res = await body(view);
    const { revision, events } = txn.end();
    if (!res.ok) return res;
    if (events.length > 0) this.#deps.onEvents(revision, events);
    for (const id of view.touchedLeases) this.#backendOps.push(...this.#deps.leases.persistOps(id));
    return ok({ response: res.value });
  }

  #compact(c: pb.CompactionRequest): Result<Applied> {
    const res = this.#deps.store.compact(c.revision);
    if (!res.ok) return res;
    this.#deps.onCompacted(c.revision);
    return ok({ response: { header: header(this.#deps.store.currentRevision) }, done: res.value.done });
  }

  #leaseGrant(g: pb.LeaseGrantRequest, nowMs: number): Result<Applied> {
    const res = this.#deps.leases.grant(g.ID, g.TTL, nowMs);
    if (!res.ok) return res;
    this.#backendOps.push(...this.#deps.leases.persistOps(res.value.id));
    const resp: pb.LeaseGrantResponse = {
      header: header(this.#deps.store.currentRevision),
      ID: res.value.id,
      TTL: res.value.ttl,
      error: '',
    };
    return ok({ response: resp });
  }

  async #leaseRevoke(r: pb.LeaseRevokeRequest): Promise<Result<Applied>> {
    const res = this.#deps.leases.revoke(r.ID);
    if (!res.ok) return res;
    this.#backendOps.push(...this.#deps.leases.persistOps(r.ID));
    const keys = [...res.value.keys].sort(Buffer.compare);
    return this.#write((v) => {
      for (const key of keys) if (v.txn.deleteRange(key, Buffer.alloc(0)).length > 0) v.wrote = true;
      return ok({ header: header(v.wrote ? v.txn.revision : v.txn.revision - 1n) });
    });
  }

  /** Every member records each lease's remaining TTL (and persists it); unknown leases are skipped. */
  #leaseCheckpoint(c: pb.LeaseCheckpointRequest): pb.LeaseCheckpointResponse {
    const { leases } = this.#deps;
    const response = { header: header(this.#deps.store.currentRevision) };
    for (const cp of c.checkpoints) {
      if (!leases.exists(cp.ID)) continue;
      leases.checkpoint(cp.ID, cp.remainingTTL);
      this.#backendOps.push(...leases.persistOps(cp.ID));
    }
    return response;
  }

  #alarm(a: pb.AlarmRequest): pb.AlarmResponse {
    const entry = { memberID: a.memberID, alarm: a.alarm };
    const { alarms } = this.#deps;
    if (a.action === ALARM_ACTIVATE) {
      const op = alarms.activate(entry);
      if (op) this.#backendOps.push(op);
      return { header: header(this.#deps.store.currentRevision), alarms: op ? [entry] : [] };
    }
    if (a.action === ALARM_DEACTIVATE) {
      const op = alarms.deactivate(entry);
      if (op) this.#backendOps.push(op);
      return { header: header(this.#deps.store.currentRevision), alarms: op ? [entry] : [] };
    }
    return { header: header(this.#deps.store.currentRevision), alarms: alarms.list(a.alarm) };
  }
}

/** A header with only the revision set; the member fills cluster/member/term at the edge. */
export const header = (revision: bigint): pb.ResponseHeader => ({ clusterId: 0n, memberId: 0n, revision, raftTerm: 0n });
