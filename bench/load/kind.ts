/**
 * A load kind: how one closed-loop client issues one request. One kind per file (put.ts, range.ts).
 */
import type { KVClient } from '../../proto/gen/etcd/rpc.js';
import type { LoadParams } from './protocol.js';

export interface LoadKind {
  /** Issues one request on `kv` for client number `client`; calls `done` exactly once. */
  issue(kv: KVClient, client: number, done: (err: Error | null) => void): void;
}

/** `workerIndex` of `workers` children in this run. */
export type LoadKindFactory = (params: LoadParams, workerIndex: number, workers: number) => LoadKind;

/** Small deterministic PRNG (xorshift32); seeded per worker so runs are repeatable. */
export function xorshift32(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}
