/**
 * Put load: each request writes a fixed-size value under a key drawn uniformly from
 * `keySpace` keys named `bench/put/<n>` (zero-padded to 8 digits).
 */
import type { PutRequest } from '../../proto/gen/etcd/rpc.js';
import { xorshift32, type LoadKindFactory } from './kind.js';

export const PUT_PREFIX = 'bench/put/';

export const putLoad: LoadKindFactory = (params, workerIndex) => {
  const rand = xorshift32(0x5eed + workerIndex * 7919);
  const value = Buffer.alloc(params.valueSize, 0x61);
  return {
    issue(kv, _client, done) {
      const n = Math.floor(rand() * params.keySpace);
      const req: PutRequest = {
        key: Buffer.from(PUT_PREFIX + String(n).padStart(8, '0')),
        value,
        lease: 0n,
        prevKv: false,
        ignoreValue: false,
        ignoreLease: false,
      };
      kv.put(req, (err) => done(err));
    },
  };
};
