/**
 * The Maintenance.Snapshot stream (server/snapshot/stream.ts, streamed-snapshot.ts) over a
 * memory backend: chunks of at most 32 KiB with remaining_bytes counting down to 0, then the
 * SHA-256 of everything sent; the image is whole pages and reads back (bbolt reader) as the
 * backend's buckets at the time the stream started — writes made while it streams are not in
 * it; it is byte for byte the file writeBolt writes; the pinned view is released at the end and
 * when the client stops early; stale temporary files are removed on demand.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openBolt, writeBolt } from '../../../server/snapshot/bbolt/index.js';
import { backendBuckets, removeSnapshotTemps, streamSnapshot } from '../../../server/snapshot/stream.js';
import { StreamedSnapshot } from '../../../server/snapshot/streamed-snapshot.js';
import { Bucket, type BackendOp } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { checkBolt } from './bbolt-check.js';
import { pinByScan, sizesOf } from './pinned-by-scan.js';

const root = mkdtempSync(join(tmpdir(), 'bbolt-stream-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirNo = 0;
const freshDir = (): string => mkdtempSync(join(root, `d${++dirNo}-`));

function rev(main: number): Buffer {
  const k = Buffer.alloc(17);
  k.writeBigUInt64BE(BigInt(main), 0);
  k[8] = 0x5f;
  return k;
}

async function filledBackend(records: number): Promise<ReturnType<typeof createMemoryBackend>> {
  const backend = createMemoryBackend();
  const ops: BackendOp[] = [];
  for (let i = 0; i < records; i++) ops.push({ type: 'put', bucket: Bucket.Key, key: rev(i + 2), value: Buffer.alloc(100, i % 251) });
  ops.push({ type: 'put', bucket: Bucket.Meta, key: Buffer.from('consistent_index'), value: Buffer.from('0000000000000007', 'hex') });
  ops.push({ type: 'put', bucket: Bucket.Cluster, key: Buffer.from('clusterVersion'), value: Buffer.from('3.5.0') });
  await backend.write(ops);
  return backend;
}

void test('chunks count down to 0, then the SHA-256; the image reads back as the backend', async () => {
  const backend = await filledBackend(2000);
  // writes land right after the view is pinned, before the image is built: not part of it
  const pin = async () => {
    const view = await backend.snapshot();
    const records = await sizesOf(view);
    await backend.write([{ type: 'put', bucket: Bucket.Key, key: rev(999_999), value: Buffer.from('late') }]);
    await backend.write([{ type: 'del', bucket: Bucket.Key, key: rev(2) }]);
    return { view, records };
  };
  const dir = freshDir();
  const chunks: Buffer[] = [];
  const remaining: bigint[] = [];
  for await (const msg of streamSnapshot(() => StreamedSnapshot.start(pin))) {
    chunks.push(msg.blob);
    remaining.push(msg.remainingBytes);
  }
  const image = Buffer.concat(chunks.slice(0, -1));
  assert.equal(image.length % 4096, 0);
  assert.ok(chunks.slice(0, -1).every((c) => c.length > 0 && c.length <= 32 * 1024));
  let left = image.length;
  chunks.slice(0, -1).forEach((c, i) => {
    left -= c.length;
    assert.equal(remaining[i], BigInt(left));
  });
  assert.equal(remaining.at(-1), 0n);
  assert.deepEqual(chunks.at(-1), createHash('sha256').update(image).digest());

  checkBolt(image);
  const file = join(dir, 'got.db');
  writeFileSync(file, Buffer.concat(chunks));
  const r = await openBolt(file);
  try {
    assert.deepEqual(r.bucketNames(), ['alarm', 'auth', 'authRoles', 'authUsers', 'cluster', 'key', 'lease', 'members', 'members_removed', 'meta']);
    const keys: Buffer[] = [];
    for await (const [k, v] of r.entries('key')) {
      keys.push(k);
      assert.equal(v.length, 100);
    }
    assert.equal(keys.length, 2000, 'the late writes are not in the image');
    assert.deepEqual(keys[0], rev(2));
    const meta: string[] = [];
    for await (const [k, v] of r.entries('meta')) meta.push(`${k.toString()}=${v.toString('hex')}`);
    assert.deepEqual(meta, ['consistent_index=0000000000000007']);
  } finally {
    await r.close();
  }
});

void test('the stream is byte for byte the file writeBolt writes for the same view', async () => {
  const backend = await filledBackend(3000);
  const blobs: Buffer[] = [];
  for await (const m of streamSnapshot(() => StreamedSnapshot.start(pinByScan(backend)))) blobs.push(Buffer.from(m.blob));
  const file = join(freshDir(), 'written.db');
  const view = await backend.snapshot();
  try {
    await writeBolt(file, backendBuckets(view), { sync: false });
  } finally {
    await view.close();
  }
  assert.ok(Buffer.concat(blobs.slice(0, -1)).equals(readFileSync(file)));
});

void test('a client that stops early releases the view; the image holds no more than two pieces', async () => {
  const backend = await filledBackend(20_000);
  let open = 0;
  const pin = async () => {
    const view = await backend.snapshot();
    open++;
    const records = await sizesOf(view);
    return { view: { get: view.get.bind(view), iterate: view.iterate.bind(view), batches: view.batches.bind(view), close: () => ((open -= 1), view.close()) }, records };
  };
  let messages = 0;
  for await (const msg of streamSnapshot(() => StreamedSnapshot.start(pin))) {
    assert.ok(msg.blob.length > 0);
    assert.equal(open, 1, 'pinned while the image is read');
    if (++messages === 3) break;
  }
  assert.equal(open, 0);
});

void test('an empty backend gives a valid image of empty buckets', async () => {
  const chunks: Buffer[] = [];
  for await (const msg of streamSnapshot(() => StreamedSnapshot.start(pinByScan(createMemoryBackend())))) chunks.push(msg.blob);
  const image = Buffer.concat(chunks.slice(0, -1));
  assert.equal(image.length, 4 * 4096, 'meta, meta, root leaf (all buckets inline), free list');
  checkBolt(image);
});

void test('removeSnapshotTemps removes only leftover temporary images', async () => {
  const dir = freshDir();
  writeFileSync(join(dir, 'tmp-0123abcd.snapshot.db'), 'x');
  writeFileSync(join(dir, 'db'), 'x');
  writeFileSync(join(dir, '0000000000000001-0000000000000002.snap'), 'x');
  assert.equal(await removeSnapshotTemps(dir), 1);
  assert.deepEqual(readdirSync(dir).sort(), ['0000000000000001-0000000000000002.snap', 'db']);
  assert.equal(await removeSnapshotTemps(join(dir, 'missing')), 0);
});

void test("the v2 store's image in the cluster bucket stays out of the snapshot (v3 data only)", async () => {
  const backend = await filledBackend(3);
  await backend.write([{ type: 'put', bucket: Bucket.Cluster, key: Buffer.from('v2store'), value: Buffer.from('{"nodes":{}}') }]);
  const blobs: Buffer[] = [];
  for await (const m of streamSnapshot(() => StreamedSnapshot.start(pinByScan(backend)))) blobs.push(Buffer.from(m.blob));
  const file = join(freshDir(), 'snap.db');
  writeFileSync(file, Buffer.concat(blobs));
  const r = await openBolt(file);
  try {
    const keys: string[] = [];
    for await (const [k] of r.entries(Bucket.Cluster)) keys.push(k.toString());
    assert.deepEqual(keys, ['clusterVersion']);
  } finally {
    await r.close();
  }
});
