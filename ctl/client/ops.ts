/**
 * Building KV requests: get/put/delete options → RangeRequest/PutRequest/DeleteRangeRequest,
 * compares and transaction operations. Pure functions; every field gets its proto default.
 */
import {
  Compare_CompareResult,
  Compare_CompareTarget,
  RangeRequest_SortOrder,
  RangeRequest_SortTarget,
  type Compare,
  type DeleteRangeRequest,
  type PutRequest,
  type RangeRequest,
  type RequestOp,
  type TxnRequest,
} from '../../proto/gen/etcd/rpc.js';
import { resolveRange, toBytes, type KeyLike, type RangeSelection } from './keys.js';

export const SortOrder = { None: 0, Ascend: 1, Descend: 2 } as const;
export type SortOrder = (typeof SortOrder)[keyof typeof SortOrder];

export const SortTarget = { Key: 0, Version: 1, Create: 2, Mod: 3, Value: 4 } as const;
export type SortTarget = (typeof SortTarget)[keyof typeof SortTarget];

export interface GetOptions extends RangeSelection {
  readonly limit?: bigint;
  readonly revision?: bigint;
  readonly sortOrder?: SortOrder;
  readonly sortTarget?: SortTarget;
  readonly serializable?: boolean;
  readonly keysOnly?: boolean;
  readonly countOnly?: boolean;
  readonly minModRevision?: bigint;
  readonly maxModRevision?: bigint;
  readonly minCreateRevision?: bigint;
  readonly maxCreateRevision?: bigint;
}

export interface PutOptions {
  readonly lease?: bigint;
  readonly prevKv?: boolean;
  readonly ignoreValue?: boolean;
  readonly ignoreLease?: boolean;
}

export interface DeleteOptions extends RangeSelection {
  readonly prevKv?: boolean;
}

export function rangeRequest(key: KeyLike, o: GetOptions = {}): RangeRequest {
  const r = resolveRange(key, o);
  return {
    key: r.key,
    rangeEnd: r.rangeEnd,
    limit: o.limit ?? 0n,
    revision: o.revision ?? 0n,
    sortOrder: (o.sortOrder ?? SortOrder.None) as number as RangeRequest_SortOrder,
    sortTarget: (o.sortTarget ?? SortTarget.Key) as number as RangeRequest_SortTarget,
    serializable: o.serializable ?? false,
    keysOnly: o.keysOnly ?? false,
    countOnly: o.countOnly ?? false,
    minModRevision: o.minModRevision ?? 0n,
    maxModRevision: o.maxModRevision ?? 0n,
    minCreateRevision: o.minCreateRevision ?? 0n,
    maxCreateRevision: o.maxCreateRevision ?? 0n,
  };
}

export function putRequest(key: KeyLike, value: KeyLike, o: PutOptions = {}): PutRequest {
  return {
    key: toBytes(key),
    value: toBytes(value),
    lease: o.lease ?? 0n,
    prevKv: o.prevKv ?? false,
    ignoreValue: o.ignoreValue ?? false,
    ignoreLease: o.ignoreLease ?? false,
  };
}

export function deleteRequest(key: KeyLike, o: DeleteOptions = {}): DeleteRangeRequest {
  const r = resolveRange(key, o);
  return { key: r.key, rangeEnd: r.rangeEnd, prevKv: o.prevKv ?? false };
}

/** Comparison operators as etcdctl writes them. */
export const CompareOp = { Equal: '=', NotEqual: '!=', Greater: '>', Less: '<' } as const;
export type CompareOp = (typeof CompareOp)[keyof typeof CompareOp];

const RESULT: Readonly<Record<CompareOp, Compare_CompareResult>> = {
  '=': Compare_CompareResult.EQUAL,
  '!=': Compare_CompareResult.NOT_EQUAL,
  '>': Compare_CompareResult.GREATER,
  '<': Compare_CompareResult.LESS,
};

/** What a compare looks at, with the operand. */
export type CompareTarget =
  | { readonly target: 'version'; readonly value: bigint }
  | { readonly target: 'create'; readonly value: bigint }
  | { readonly target: 'mod'; readonly value: bigint }
  | { readonly target: 'value'; readonly value: KeyLike }
  | { readonly target: 'lease'; readonly value: bigint };

export function compare(key: KeyLike, op: CompareOp, t: CompareTarget, rangeEnd?: KeyLike): Compare {
  const base = { result: RESULT[op], key: toBytes(key), rangeEnd: rangeEnd === undefined ? Buffer.alloc(0) : toBytes(rangeEnd) };
  switch (t.target) {
    case 'version':
      return { ...base, target: Compare_CompareTarget.VERSION, targetUnion: { $case: 'version', value: t.value } };
    case 'create':
      return { ...base, target: Compare_CompareTarget.CREATE, targetUnion: { $case: 'createRevision', value: t.value } };
    case 'mod':
      return { ...base, target: Compare_CompareTarget.MOD, targetUnion: { $case: 'modRevision', value: t.value } };
    case 'value':
      return { ...base, target: Compare_CompareTarget.VALUE, targetUnion: { $case: 'value', value: toBytes(t.value) } };
    case 'lease':
      return { ...base, target: Compare_CompareTarget.LEASE, targetUnion: { $case: 'lease', value: t.value } };
  }
}

/** Transaction operations. */
export const Op = {
  get: (key: KeyLike, o: GetOptions = {}): RequestOp => ({ request: { $case: 'requestRange', value: rangeRequest(key, o) } }),
  put: (key: KeyLike, value: KeyLike, o: PutOptions = {}): RequestOp => ({ request: { $case: 'requestPut', value: putRequest(key, value, o) } }),
  del: (key: KeyLike, o: DeleteOptions = {}): RequestOp => ({ request: { $case: 'requestDeleteRange', value: deleteRequest(key, o) } }),
  txn: (t: TxnRequest): RequestOp => ({ request: { $case: 'requestTxn', value: t } }),
} as const;

export function txnRequest(compares: readonly Compare[], success: readonly RequestOp[], failure: readonly RequestOp[]): TxnRequest {
  return { compare: [...compares], success: [...success], failure: [...failure] };
}
