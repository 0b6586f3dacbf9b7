/**
 * Evaluation of txn compares against a write transaction's view.
 * A compare over a range holds only if it holds for every key in the range; over a range
 * with no live key, a VALUE compare is false and other targets compare against zero.
 * Enum numbers outside the proto's names are read as the reference server reads them: an
 * unknown target compares as equal, an unknown result holds.
 */
import type * as pb from '../../proto/gen/etcd/rpc.js';
import type { KeyValue, WriteTxn } from '../mvcc/types.js';
import { rangeAll } from './range-params.js';

const Target = { Version: 0, Create: 1, Mod: 2, Value: 3, Lease: 4 } as const;
const Outcome = { Equal: 0, Greater: 1, Less: 2, NotEqual: 3 } as const;

const ZERO: KeyValue = {
  key: Buffer.alloc(0),
  createRevision: 0n,
  modRevision: 0n,
  version: 0n,
  value: Buffer.alloc(0),
  lease: 0n,
};

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function targetOf(c: pb.Compare): bigint | Buffer {
  const u = c.targetUnion;
  if (u === undefined) return c.target === Target.Value ? Buffer.alloc(0) : 0n;
  return u.value;
}

function compareOne(c: pb.Compare, kv: KeyValue): boolean {
  let order: number;
  const want = targetOf(c);
  switch (c.target) {
    case Target.Value:
      order = Buffer.compare(kv.value, want instanceof Buffer ? want : Buffer.alloc(0));
      break;
    case Target.Version:
      order = cmp(kv.version, typeof want === 'bigint' ? want : 0n);
      break;
    case Target.Create:
      order = cmp(kv.createRevision, typeof want === 'bigint' ? want : 0n);
      break;
    case Target.Mod:
      order = cmp(kv.modRevision, typeof want === 'bigint' ? want : 0n);
      break;
    case Target.Lease:
      order = cmp(kv.lease, typeof want === 'bigint' ? want : 0n);
      break;
    default:
      order = 0;
  }
  switch (c.result) {
    case Outcome.Equal:
      return order === 0;
    case Outcome.Greater:
      return order > 0;
    case Outcome.Less:
      return order < 0;
    case Outcome.NotEqual:
      return order !== 0;
    default:
      return true;
  }
}

/** True when every compare holds. */
export async function evaluateCompares(txn: WriteTxn, compares: readonly pb.Compare[]): Promise<boolean> {
  for (const c of compares) {
    if (c.rangeEnd.length === 0) {
      const kv = txn.get(c.key);
      if (kv === undefined && c.target === Target.Value) return false;
      if (!compareOne(c, kv ?? ZERO)) return false;
      continue;
    }
    const res = await txn.range(rangeAll(c.key, c.rangeEnd));
    if (!res.ok) return false;
    if (res.value.kvs.length === 0) {
      if (c.target === Target.Value || !compareOne(c, ZERO)) return false;
      continue;
    }
    for (const kv of res.value.kvs) if (!compareOne(c, kv)) return false;
  }
  return true;
}
