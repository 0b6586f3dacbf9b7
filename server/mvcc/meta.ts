/**
 * The MVCC entries of the `meta` bucket (see FORMAT.md):
 * - `consistent_index`: 8-byte big-endian index of the last applied log entry in the backend;
 * - `scheduledCompactRev` / `finishedCompactRev`: a compaction's revision as a 17-byte
 *   revision key (main BE, '_', sub 0). scheduled > finished means a compaction was cut short.
 */
import { Bucket, type BackendOp, type ReadView } from '../storage/backend.js';
import { mainOfKey, revisionBound } from './revision.js';

export const META_CONSISTENT_INDEX = Buffer.from('consistent_index');
export const META_SCHEDULED_COMPACT = Buffer.from('scheduledCompactRev');
export const META_FINISHED_COMPACT = Buffer.from('finishedCompactRev');

export function encodeUint64(value: bigint): Buffer {
  const out = Buffer.allocUnsafe(8);
  out.writeBigUInt64BE(value, 0);
  return out;
}

export function consistentIndexOp(index: bigint): BackendOp {
  return { type: 'put', bucket: Bucket.Meta, key: META_CONSISTENT_INDEX, value: encodeUint64(index) };
}

export function scheduledCompactOp(revision: bigint): BackendOp {
  return { type: 'put', bucket: Bucket.Meta, key: META_SCHEDULED_COMPACT, value: revisionBound(revision) };
}

export function finishedCompactOp(revision: bigint): BackendOp {
  return { type: 'put', bucket: Bucket.Meta, key: META_FINISHED_COMPACT, value: revisionBound(revision) };
}

export interface MvccMeta {
  readonly consistentIndex: bigint;
  readonly scheduledCompactRev: bigint;
  readonly finishedCompactRev: bigint;
}

function checkedLength(name: Buffer, value: Buffer, min: number): Buffer {
  if (value.length < min) throw new Error(`mvcc: meta ${name.toString()} is ${value.length} bytes, expected ≥ ${min}`);
  return value;
}

/** Reads the MVCC meta entries (0 when absent). */
export async function readMeta(view: ReadView): Promise<MvccMeta> {
  const ci = await view.get(Bucket.Meta, META_CONSISTENT_INDEX);
  const scheduled = await view.get(Bucket.Meta, META_SCHEDULED_COMPACT);
  const finished = await view.get(Bucket.Meta, META_FINISHED_COMPACT);
  return {
    consistentIndex: ci === undefined ? 0n : checkedLength(META_CONSISTENT_INDEX, ci, 8).readBigUInt64BE(0),
    scheduledCompactRev: scheduled === undefined ? 0n : mainOfKey(checkedLength(META_SCHEDULED_COMPACT, scheduled, 8)),
    finishedCompactRev: finished === undefined ? 0n : mainOfKey(checkedLength(META_FINISHED_COMPACT, finished, 8)),
  };
}
