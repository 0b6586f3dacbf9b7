/**
 * Put load: each request writes a fixed-size value under one of `keySpace` keys named
 * `bench/put/<n>` (zero-padded to 8 digits), drawn uniformly, or in turn when `sequentialKeys`
 * (child w of p takes w, w + p, w + 2p, … so the children together walk the key space).
 */
import type { PutRequest } from '../../proto/gen/etcd/rpc.js';
import { xorshift32, type LoadKindFactory } from './kind.js';

export const PUT_PREFIX = 'bench/put/';

export const putLoad: LoadKindFactory = (params, workerIndex, workers) => {
  const rand = xorshift32(0x5eed + workerIndex * 7919);
  const value = Buffer.alloc(params.valueSize, 0x61);
  let next = workerIndex;
  return {
    issue(kv, _client, done) {
      let n: number;
      if (params.sequentialKeys) {
        n = next % params.keySpace;
        next += workers;
      } else {
        n = Math.floor(rand() * params.keySpace);
      }
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
