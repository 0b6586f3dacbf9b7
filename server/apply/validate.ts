/**
 * Request checks done before a request is proposed (etcd's API-edge checks):
 * empty keys, ignore_value/ignore_lease misuse, txn op limits, empty ops and
 * duplicate keys. Pure; returns the first DomainError found.
 */
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { type DomainError } from '../errors/domain-error.js';
import { findDuplicateKey } from './txn-intervals.js';

export function checkRange(r: pb.RangeRequest): DomainError | undefined {
  return r.key.length === 0 ? { kind: 'EmptyKey' } : undefined;
}

export function checkPut(r: pb.PutRequest): DomainError | undefined {
  if (r.key.length === 0) return { kind: 'EmptyKey' };
  if (r.ignoreValue && r.value.length !== 0) return { kind: 'ValueProvided' };
  if (r.ignoreLease && r.lease !== 0n) return { kind: 'LeaseProvided' };
  return undefined;
}

export function checkDeleteRange(r: pb.DeleteRangeRequest): DomainError | undefined {
  return r.key.length === 0 ? { kind: 'EmptyKey' } : undefined;
}

/** Checks a txn and (recursively) its nested txns; then the duplicate-key rule once at the top. */
export function checkTxn(t: pb.TxnRequest, maxTxnOps: number): DomainError | undefined {
  return checkTxnShape(t, maxTxnOps) ?? (findDuplicateKey(t) ? { kind: 'DuplicateKey' } : undefined);
}

function checkTxnShape(t: pb.TxnRequest, maxTxnOps: number): DomainError | undefined {
  if (t.compare.length > maxTxnOps || t.success.length > maxTxnOps || t.failure.length > maxTxnOps) {
    return { kind: 'TooManyOps' };
  }
  for (const c of t.compare) if (c.key.length === 0) return { kind: 'EmptyKey' };
  for (const op of t.success) {
    const e = checkOp(op, maxTxnOps);
    if (e) return e;
  }
  for (const op of t.failure) {
    const e = checkOp(op, maxTxnOps);
    if (e) return e;
  }
  return undefined;
}

function checkOp(op: pb.RequestOp, maxTxnOps: number): DomainError | undefined {
  const r = op.request;
  if (r === undefined) return { kind: 'KeyNotFound' };
  switch (r.$case) {
    case 'requestRange':
      return checkRange(r.value);
    case 'requestPut':
      return checkPut(r.value);
    case 'requestDeleteRange':
      return checkDeleteRange(r.value);
    case 'requestTxn':
      return checkTxnShape(r.value, maxTxnOps);
  }
}
