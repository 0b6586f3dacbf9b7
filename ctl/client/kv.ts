/**
 * The KV API: get, put, delete, txn, compact. Reads are `repeatable` (retried on another
 * endpoint after Unavailable); writes are `mutable` (see invoker.ts).
 */
import {
  KVService,
  type CompactionResponse,
  type Compare,
  type DeleteRangeResponse,
  type PutResponse,
  type RangeResponse,
  type RequestOp,
  type TxnResponse,
} from '../../proto/gen/etcd/rpc.js';
import type { CallOptions, Invoker } from './invoker.js';
import type { KeyLike } from './keys.js';
import { deleteRequest, putRequest, rangeRequest, txnRequest, type DeleteOptions, type GetOptions, type PutOptions } from './ops.js';
import type { Result } from './result.js';

export interface TxnSpec {
  readonly compare?: readonly Compare[];
  readonly success?: readonly RequestOp[];
  readonly failure?: readonly RequestOp[];
}

export interface KV {
  get(key: KeyLike, opts?: GetOptions & CallOptions): Promise<Result<RangeResponse>>;
  put(key: KeyLike, value: KeyLike, opts?: PutOptions & CallOptions): Promise<Result<PutResponse>>;
  delete(key: KeyLike, opts?: DeleteOptions & CallOptions): Promise<Result<DeleteRangeResponse>>;
  /** A transaction is `repeatable` when it only reads. */
  txn(spec: TxnSpec, opts?: CallOptions): Promise<Result<TxnResponse>>;
  compact(revision: bigint, opts?: { readonly physical?: boolean } & CallOptions): Promise<Result<CompactionResponse>>;
}

function readOnly(ops: readonly RequestOp[]): boolean {
  return ops.every((op) => op.request?.$case === 'requestRange' || (op.request?.$case === 'requestTxn' && readOnly([...op.request.value.success, ...op.request.value.failure])));
}

export function makeKV(inv: Invoker): KV {
  return {
    get: (key, opts = {}) => inv.unary(KVService.range, rangeRequest(key, opts), 'repeatable', opts),
    put: (key, value, opts = {}) => inv.unary(KVService.put, putRequest(key, value, opts), 'mutable', opts),
    delete: (key, opts = {}) => inv.unary(KVService.deleteRange, deleteRequest(key, opts), 'mutable', opts),
    txn: (spec, opts = {}) => {
      const req = txnRequest(spec.compare ?? [], spec.success ?? [], spec.failure ?? []);
      return inv.unary(KVService.txn, req, readOnly([...req.success, ...req.failure]) ? 'repeatable' : 'mutable', opts);
    },
    compact: (revision, opts = {}) => inv.unary(KVService.compact, { revision, physical: opts.physical ?? false }, 'repeatable', opts),
  };
}
