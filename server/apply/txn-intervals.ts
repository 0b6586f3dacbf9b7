/**
 * The duplicate-key rule of transactions: within one branch no key is put twice and no
 * put falls inside a delete range of that branch. A nested txn contributes the puts and
 * deletes of both its branches; its then- and else-branch may put the same key (only one
 * of them runs), but neither may collide with the enclosing branch.
 */
import type * as pb from '../../proto/gen/etcd/rpc.js';

interface Interval {
  readonly start: Buffer;
  /** Exclusive; undefined → single key; length-0 end never occurs; [0x00] → unbounded. */
  readonly end: Buffer | undefined;
}

function contains(iv: Interval, key: Buffer): boolean {
  if (iv.end === undefined) return iv.start.equals(key);
  if (Buffer.compare(key, iv.start) < 0) return false;
  if (iv.end.length === 1 && iv.end[0] === 0) return true;
  return Buffer.compare(key, iv.end) < 0;
}

const hits = (dels: readonly Interval[], key: Buffer): boolean => dels.some((d) => contains(d, key));

class Duplicate extends Error {}

function collect(ops: readonly pb.RequestOp[]): { puts: Map<string, Buffer>; dels: Interval[] } {
  const dels: Interval[] = [];
  for (const op of ops) {
    if (op.request?.$case !== 'requestDeleteRange') continue;
    const d = op.request.value;
    dels.push({ start: d.key, end: d.rangeEnd.length === 0 ? undefined : d.rangeEnd });
  }
  const puts = new Map<string, Buffer>();
  for (const op of ops) {
    if (op.request?.$case !== 'requestTxn') continue;
    const then = collect(op.request.value.success);
    const other = collect(op.request.value.failure);
    for (const [k, key] of then.puts) {
      if (puts.has(k) || hits(dels, key)) throw new Duplicate();
      puts.set(k, key);
    }
    for (const [k, key] of other.puts) {
      if (puts.has(k) && !then.puts.has(k)) throw new Duplicate();
      if (hits(dels, key)) throw new Duplicate();
      puts.set(k, key);
    }
    dels.push(...then.dels, ...other.dels);
  }
  for (const op of ops) {
    if (op.request?.$case !== 'requestPut') continue;
    const key = op.request.value.key;
    const k = key.toString('latin1');
    if (puts.has(k) || hits(dels, key)) throw new Duplicate();
    puts.set(k, key);
  }
  return { puts, dels };
}

/** True when either branch of the txn breaks the duplicate-key rule. */
export function findDuplicateKey(t: pb.TxnRequest): boolean {
  try {
    collect(t.success);
    collect(t.failure);
    return false;
  } catch (e) {
    if (e instanceof Duplicate) return true;
    throw e;
  }
}
