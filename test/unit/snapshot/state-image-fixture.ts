/**
 * Test side: an MVCC store over a memory backend holding records in every bucket kvstore has
 * (`key` with tombstones and a value over a page, `meta`, leases, alarms, the `cluster` bucket
 * with the v2 store, members, removed members, auth), the state image of it gathered into a
 * Buffer, and a dump of a backend for record-for-record comparisons.
 */
import { startStateImage, stateImagePieces } from '../../../server/snapshot/state-image/send.js';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import { Bucket, type Backend, type BackendOp } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';

const b = (s: string): Buffer => Buffer.from(s);

/** One record (or more) in every bucket but `key` and `meta`, tagged so two sources differ. */
export function otherBuckets(tag: string): BackendOp[] {
  const put = (bucket: Bucket, key: string, value: Buffer | string): BackendOp => ({ type: 'put', bucket, key: b(key), value: typeof value === 'string' ? b(value) : value });
  const ops: BackendOp[] = [];
  for (let i = 0; i < 20; i++) ops.push(put(Bucket.Lease, `${tag}-lease-${i}`, Buffer.alloc(24, i)));
  ops.push(
    put(Bucket.Alarm, `${tag}-alarm`, ''),
    put(Bucket.Cluster, 'clusterVersion', '3.5.0'),
    put(Bucket.Cluster, 'v2store', JSON.stringify({ tag, nodes: { '/v2/dir/key': 'value' } })),
    put(Bucket.Members, `${tag}-member`, JSON.stringify({ id: 1, peerURLs: ['http://127.0.0.1:2380'] })),
    put(Bucket.MembersRemoved, `${tag}-removed`, 'removed'),
    put(Bucket.Auth, 'authEnabled', Buffer.from([1])),
    put(Bucket.Auth, 'authRevision', Buffer.alloc(8, 3)),
    put(Bucket.AuthUsers, `${tag}-root`, 'user record'),
    put(Bucket.AuthRoles, `${tag}-root`, 'role record'),
    put(Bucket.Meta, 'term', Buffer.alloc(8, 2)),
  );
  return ops;
}

/** A store holding `keys` keys (every fifth deleted again, one value over a page) and otherBuckets(tag), flushed at `index`. */
export async function filledStore(keys: number, index: number, tag: string): Promise<{ backend: Backend; store: MvccStoreImpl }> {
  const backend = createMemoryBackend();
  const store = await openMvccStore(backend);
  for (let i = 0; i < keys; i++) {
    const txn = store.beginWrite();
    txn.put(b(`${tag}/key-${String(i).padStart(6, '0')}`), i === 7 ? Buffer.alloc(9000, 7) : Buffer.alloc(100 + (i % 50), i & 0xff), 0n);
    txn.end();
    if (i % 5 === 4) {
      const del = store.beginWrite();
      del.deleteRange(b(`${tag}/key-${String(i - 1).padStart(6, '0')}`), Buffer.alloc(0));
      del.end();
    }
  }
  await store.flush(BigInt(index), otherBuckets(tag));
  return { backend, store };
}

export async function collect(pieces: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const p of pieces) out.push(p);
  return out;
}

/** The state image of `store` as the leader sends it (pieces, trailer last). */
export async function stateImageOf({ store, backend }: { readonly store: MvccStoreImpl; readonly backend: Backend }): Promise<Buffer[]> {
  const { image } = await startStateImage({ store, backend, flush: () => Promise.resolve() });
  return collect(stateImagePieces(image));
}

/** Every record of every bucket, as `bucket/key-hex=value-hex`. */
export async function dump(be: Backend): Promise<string[]> {
  const out: string[] = [];
  for (const bucket of Object.values(Bucket)) {
    for await (const [k, v] of be.iterate(bucket)) out.push(`${bucket}/${k.toString('hex')}=${v.toString('hex')}`);
  }
  return out;
}

/** Every record of `be` as a put (to copy it into another backend). */
export async function putsOf(be: Backend): Promise<BackendOp[]> {
  const ops: BackendOp[] = [];
  for (const bucket of Object.values(Bucket)) {
    for await (const [key, value] of be.iterate(bucket)) ops.push({ type: 'put', bucket, key: Buffer.from(key), value: Buffer.from(value) });
  }
  return ops;
}
