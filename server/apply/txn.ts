/**
 * Transactions. Order, as the reference server does it: first every compare on the path
 * (including nested txns) is evaluated against the state before the txn; then the ops
 * on that path are checked (leases exist, ignore_* keys exist, range revisions valid);
 * only then are the ops executed, in order, each seeing the earlier ones' writes.
 */
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { fail, ok, type DomainError, type Result } from '../errors/domain-error.js';
import type { WriteTxn } from '../mvcc/types.js';
import { evaluateCompares } from './compare.js';
import { applyDeleteRange, applyPut, applyRange, viewRevision, type TxnView } from './kv-ops.js';
import type { LeasePort } from './ports.js';

/** The branch chosen at each txn on the execution path, in pre-order. */
interface Path {
  readonly succeeded: boolean;
  readonly nested: Map<number, Path>;
}

async function choosePath(txn: WriteTxn, t: pb.TxnRequest): Promise<Path> {
  const succeeded = await evaluateCompares(txn, t.compare);
  const nested = new Map<number, Path>();
  const ops = succeeded ? t.success : t.failure;
  for (let i = 0; i < ops.length; i++) {
    const r = ops[i]!.request;
    if (r?.$case === 'requestTxn') nested.set(i, await choosePath(txn, r.value));
  }
  return { succeeded, nested };
}

function checkPath(txn: WriteTxn, t: pb.TxnRequest, path: Path, leases: LeasePort, compactRevision: bigint): DomainError | undefined {
  const ops = path.succeeded ? t.success : t.failure;
  for (let i = 0; i < ops.length; i++) {
    const r = ops[i]!.request;
    if (r === undefined) continue;
    if (r.$case === 'requestPut') {
      const e = checkPutAgainstState(txn, r.value, leases);
      if (e) return e;
    } else if (r.$case === 'requestRange') {
      const e = checkRangeRevision(txn, r.value.revision, compactRevision);
      if (e) return e;
    } else if (r.$case === 'requestTxn') {
      const e = checkPath(txn, r.value, path.nested.get(i)!, leases, compactRevision);
      if (e) return e;
    }
  }
  return undefined;
}

/** Apply-time checks of a put against the current state. */
export function checkPutAgainstState(txn: WriteTxn, p: pb.PutRequest, leases: LeasePort): DomainError | undefined {
  if ((p.ignoreValue || p.ignoreLease) && txn.get(p.key) === undefined) return { kind: 'KeyNotFound' };
  if (!p.ignoreLease && p.lease !== 0n && !leases.exists(p.lease)) return { kind: 'LeaseNotFound' };
  return undefined;
}

function checkRangeRevision(txn: WriteTxn, revision: bigint, compactRevision: bigint): DomainError | undefined {
  const current = txn.revision - 1n;
  if (revision > current) return { kind: 'FutureRev', currentRevision: current };
  if (revision > 0n && revision < compactRevision) return { kind: 'Compacted', compactRevision };
  return undefined;
}

/**
 * Runs the chosen ops. Only the outermost response carries the txn's revision in its header; a
 * nested txn's response has an empty header, as the reference server answers.
 */
async function execute(v: TxnView, t: pb.TxnRequest, path: Path, leases: LeasePort, nested = false): Promise<Result<pb.TxnResponse>> {
  const ops = path.succeeded ? t.success : t.failure;
  const responses: pb.ResponseOp[] = [];
  for (let i = 0; i < ops.length; i++) {
    const r = ops[i]!.request;
    if (r === undefined) continue;
    switch (r.$case) {
      case 'requestRange': {
        const res = await applyRange(v, r.value);
        if (!res.ok) return res;
        responses.push({ response: { $case: 'responseRange', value: res.value } });
        break;
      }
      case 'requestPut':
        responses.push({ response: { $case: 'responsePut', value: applyPut(v, r.value, leases) } });
        break;
      case 'requestDeleteRange':
        responses.push({ response: { $case: 'responseDeleteRange', value: applyDeleteRange(v, r.value, leases) } });
        break;
      case 'requestTxn': {
        const res = await execute(v, r.value, path.nested.get(i)!, leases, true);
        if (!res.ok) return res;
        responses.push({ response: { $case: 'responseTxn', value: res.value } });
        break;
      }
    }
  }
  return ok({
    header: { clusterId: 0n, memberId: 0n, revision: nested ? 0n : viewRevision(v), raftTerm: 0n },
    succeeded: path.succeeded,
    responses,
  });
}

/** True when the txn's chosen path contains a put (for quota / NOSPACE decisions). */
export function txnHasPut(t: pb.TxnRequest): boolean {
  const any = (ops: readonly pb.RequestOp[]): boolean =>
    ops.some((o) => o.request?.$case === 'requestPut' || (o.request?.$case === 'requestTxn' && txnHasPut(o.request.value)));
  return any(t.success) || any(t.failure);
}

/** Runs a txn inside `v`; on an error nothing of it has been written. */
export async function applyTxn(
  v: TxnView,
  t: pb.TxnRequest,
  leases: LeasePort,
  compactRevision: bigint,
): Promise<Result<pb.TxnResponse>> {
  const path = await choosePath(v.txn, t);
  const e = checkPath(v.txn, t, path, leases, compactRevision);
  if (e) return fail(e);
  return execute(v, t, path, leases);
}
