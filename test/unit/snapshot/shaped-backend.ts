/**
 * Test side: backend contents of a given shape for the snapshot image tests — `key` records
 * as the MVCC store writes them (revision keys, records naming their own revision; some
 * tombstones, a few values over a page), a few leases, meta and
 * cluster keys (the v2 store's among them).
 */
import { xorshift32 } from '../../../bench/load/kind.js';
import { encodeKeyValue, encodeTombstone } from '../../../server/mvcc/kv-codec.js';
import { Bucket, type Backend, type BackendOp } from '../../../server/storage/backend.js';

export function revisionKey(main: number, sub: number, tombstone: boolean): Buffer {
  const k = Buffer.alloc(tombstone ? 18 : 17);
  k.writeUInt32BE(Math.floor(main / 0x100000000), 0);
  k.writeUInt32BE(main >>> 0, 4);
  k[8] = 0x5f;
  k.writeUInt32BE(sub, 13);
  if (tombstone) k[17] = 0x74;
  return k;
}

export interface Shape {
  readonly records: number;
  /** Largest value; a few records get up to three pages. */
  readonly maxValue: number;
  readonly seed: number;
}

export async function fillShaped(backend: Backend, shape: Shape): Promise<void> {
  const next = xorshift32(shape.seed);
  const ops: BackendOp[] = [];
  let main = 2;
  for (let i = 0; i < shape.records; i++) {
    const tombstone = next() < 0.1;
    const big = next() < 0.02;
    const size = big ? 4096 + Math.floor(next() * 8192) : Math.floor(next() * shape.maxValue);
    const key = Buffer.from(`key-${i}`);
    const value = tombstone ? encodeTombstone(key) : encodeKeyValue({ key, createRevision: BigInt(main), modRevision: BigInt(main), version: 1n, value: Buffer.alloc(size, i & 0xff), lease: 0n });
    ops.push({ type: 'put', bucket: Bucket.Key, key: revisionKey(main, i % 3, tombstone), value });
    if (i % 3 === 2) main += 1 + Math.floor(next() * 3);
  }
  for (let i = 0; i < 50; i++) ops.push({ type: 'put', bucket: Bucket.Lease, key: Buffer.from(`lease-${i}`), value: Buffer.alloc(40, i) });
  ops.push({ type: 'put', bucket: Bucket.Meta, key: Buffer.from('consistent_index'), value: Buffer.alloc(8, 7) });
  ops.push({ type: 'put', bucket: Bucket.Cluster, key: Buffer.from('clusterVersion'), value: Buffer.from('3.5.0') });
  ops.push({ type: 'put', bucket: Bucket.Cluster, key: Buffer.from('v2store'), value: Buffer.from('{}') });
  await backend.write(ops);
}

