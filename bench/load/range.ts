/**
 * Range load: every request reads the single key `bench/range/key`, linearizable or serializable
 * per `params.serializable`. `prepareRange` writes that key once before the run.
 */
import type { KVClient, RangeRequest } from '../../proto/gen/etcd/rpc.js';
import type { LoadKindFactory } from './kind.js';
import type { LoadParams } from './protocol.js';

export const RANGE_KEY = Buffer.from('bench/range/key');

export const rangeLoad: LoadKindFactory = (params) => {
  const req: RangeRequest = {
    key: RANGE_KEY,
    rangeEnd: Buffer.alloc(0),
    limit: 0n,
    revision: 0n,
    sortOrder: 0,
    sortTarget: 0,
    serializable: params.serializable,
    keysOnly: false,
    countOnly: false,
    minModRevision: 0n,
    maxModRevision: 0n,
    minCreateRevision: 0n,
    maxCreateRevision: 0n,
  };
  return {
    issue(kv, _client, done) {
      kv.range(req, (err) => done(err));
    },
  };
};

/** Writes the key the range load reads (value of `params.valueSize` bytes). */
export function prepareRange(kv: KVClient, params: LoadParams): Promise<void> {
  return new Promise((resolve, reject) => {
    kv.put(
      {
        key: RANGE_KEY,
        value: Buffer.alloc(params.valueSize, 0x62),
        lease: 0n,
        prevKv: false,
        ignoreValue: false,
        ignoreLease: false,
      },
      (err) => (err ? reject(new Error('preparing range key failed', { cause: err })) : resolve()),
    );
  });
}
