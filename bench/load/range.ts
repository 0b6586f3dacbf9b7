/**
 * Range load: every request reads the single key RANGE_KEY (load-spec.ts), linearizable or serializable
 * per `params.serializable`. `prepareRange` writes that key once before the run.
 */
import type { KVClient, RangeRequest } from '../../proto/gen/etcd/rpc.js';
import { RANGE_KEY as RANGE_KEY_TEXT } from '../load-spec.js';
import type { LoadKindFactory } from './kind.js';

export const RANGE_KEY = Buffer.from(RANGE_KEY_TEXT);

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

/** Writes the key the range load reads (value of `valueSize` bytes). */
export function prepareRange(kv: KVClient, valueSize: number): Promise<void> {
  return new Promise((resolve, reject) => {
    kv.put(
      {
        key: RANGE_KEY,
        value: Buffer.alloc(valueSize, 0x62),
        lease: 0n,
        prevKv: false,
        ignoreValue: false,
        ignoreLease: false,
      },
      (err) => (err ? reject(new Error('preparing range key failed', { cause: err })) : resolve()),
    );
  });
}
