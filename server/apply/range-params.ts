/** Conversions between RangeRequest messages and the MVCC store's RangeParams. */
import type * as pb from '../../proto/gen/etcd/rpc.js';
import type { RangeParams } from '../mvcc/types.js';

export function toRangeParams(r: pb.RangeRequest): RangeParams {
  return {
    key: r.key,
    rangeEnd: r.rangeEnd,
    limit: r.limit,
    revision: r.revision,
    sortOrder: r.sortOrder,
    sortTarget: r.sortTarget,
    keysOnly: r.keysOnly,
    countOnly: r.countOnly,
    minModRevision: r.minModRevision,
    maxModRevision: r.maxModRevision,
    minCreateRevision: r.minCreateRevision,
    maxCreateRevision: r.maxCreateRevision,
  };
}

/** Every live key in [key, rangeEnd) at the current revision, key order. */
export function rangeAll(key: Buffer, rangeEnd: Buffer): RangeParams {
  return {
    key,
    rangeEnd,
    limit: 0n,
    revision: 0n,
    sortOrder: 0,
    sortTarget: 0,
    keysOnly: false,
    countOnly: false,
    minModRevision: 0n,
    maxModRevision: 0n,
    minCreateRevision: 0n,
    maxCreateRevision: 0n,
  };
}
