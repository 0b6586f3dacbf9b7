/**
 * Put, DeleteRange and Range inside one write transaction, with lease bookkeeping.
 * Callers check requests first (checks.ts); these functions assume the checks passed.
 * `view.wrote` tracks whether the transaction changed anything yet: response headers
 * carry the revision as seen at that point (before the first write: the old revision).
 */
import type * as pb from '../../proto/gen/etcd/rpc.js';
import type { Result } from '../errors/domain-error.js';
import { ok } from '../errors/domain-error.js';
import type { WriteTxn } from '../mvcc/types.js';
import type { LeasePort } from './ports.js';
import { toRangeParams } from './range-params.js';

export interface TxnView {
  readonly txn: WriteTxn;
  wrote: boolean;
  /** Leases whose records changed (to persist at flush). */
  readonly touchedLeases: Set<bigint>;
}

export const viewRevision = (v: TxnView): bigint => (v.wrote ? v.txn.revision : v.txn.revision - 1n);

export function applyPut(v: TxnView, p: pb.PutRequest, leases: LeasePort): pb.PutResponse {
  // The current record is read only for ignore_value / ignore_lease / prev_kv: the put itself
  // takes what it needs from the index (its `prev` may not carry the value).
  const existing = p.ignoreValue || p.ignoreLease || p.prevKv ? v.txn.get(p.key) : undefined;
  const value = p.ignoreValue && existing ? existing.value : p.value;
  const lease = p.ignoreLease && existing ? existing.lease : p.lease;
  const { prev } = v.txn.put(p.key, value, lease);
  v.wrote = true;
  if (prev && prev.lease !== 0n && prev.lease !== lease && leases.exists(prev.lease)) {
    leases.detach(prev.lease, p.key);
    v.touchedLeases.add(prev.lease);
  }
  if (lease !== 0n) {
    leases.attach(lease, p.key);
    v.touchedLeases.add(lease);
  }
  return {
    header: { clusterId: 0n, memberId: 0n, revision: v.txn.revision, raftTerm: 0n },
    prevKv: p.prevKv ? existing : undefined,
  };
}

export function applyDeleteRange(v: TxnView, d: pb.DeleteRangeRequest, leases: LeasePort): pb.DeleteRangeResponse {
  const deleted = v.txn.deleteRange(d.key, d.rangeEnd);
  if (deleted.length > 0) v.wrote = true;
  for (const kv of deleted) {
    if (kv.lease !== 0n && leases.exists(kv.lease)) {
      leases.detach(kv.lease, kv.key);
      v.touchedLeases.add(kv.lease);
    }
  }
  return {
    header: { clusterId: 0n, memberId: 0n, revision: viewRevision(v), raftTerm: 0n },
    deleted: BigInt(deleted.length),
    prevKvs: d.prevKv ? deleted : [],
  };
}

export async function applyRange(v: TxnView, r: pb.RangeRequest): Promise<Result<pb.RangeResponse>> {
  const res = await v.txn.range(toRangeParams(r));
  if (!res.ok) return res;
  return ok({
    header: { clusterId: 0n, memberId: 0n, revision: viewRevision(v), raftTerm: 0n },
    kvs: res.value.kvs,
    more: res.value.more,
    count: res.value.count,
  });
}
