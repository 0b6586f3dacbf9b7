/**
 * Loading a KVSNAP01 state image (server/snapshot/image.ts): the backend ends up holding
 * exactly the image, whatever it held before, read in blocks and written in bounded batches;
 * a load cut short leaves consistent_index at 0 (so the member loads the kept image again at
 * restart), and loading again finishes the job; a truncated image is refused.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readMeta } from '../../../server/mvcc/meta.js';
import { imageRecordBatches, loadImage, loadImageBytes } from '../../../server/snapshot/image.js';
import { imagePieces } from '../../../server/snapshot/stream.js';
import { Bucket, type Backend, type BackendOp } from '../../../server/storage/backend.js';
import { createMemoryBackend, type MemoryBackend } from '../../../server/storage/memory-backend.js';

const root = mkdtempSync(join(tmpdir(), 'image-load-'));
after(() => rmSync(root, { recursive: true, force: true }));

const ci = (n: number): Buffer => Buffer.from(n.toString(16).padStart(16, '0'), 'hex');

async function source(records: number, index: number): Promise<MemoryBackend> {
  const be = createMemoryBackend();
  const ops: BackendOp[] = [];
  for (let i = 0; i < records; i++) ops.push({ type: 'put', bucket: Bucket.Key, key: Buffer.from(`k${String(i).padStart(6, '0')}`), value: Buffer.alloc(2000, i & 0xff) });
  ops.push({ type: 'put', bucket: Bucket.Meta, key: Buffer.from('consistent_index'), value: ci(index) });
  ops.push({ type: 'put', bucket: Bucket.Lease, key: Buffer.from('l1'), value: Buffer.from('lease') });
  await be.write(ops);
  return be;
}

async function imageOf(be: Backend): Promise<Buffer> {
  const view = await be.snapshot();
  const parts: Buffer[] = [];
  for await (const p of imagePieces(view)) parts.push(p);
  await view.close();
  return Buffer.concat(parts);
}

async function dump(be: Backend): Promise<string[]> {
  const out: string[] = [];
  for (const bucket of Object.values(Bucket)) for await (const [k, v] of be.iterate(bucket)) out.push(`${bucket}/${k.toString('hex')}=${v.length}:${v.subarray(0, 4).toString('hex')}`);
  return out;
}

void test('the backend ends up holding exactly the image (file read in blocks, records across block edges)', async () => {
  const image = await imageOf(await source(3000, 42));
  const path = join(root, 'a.snap.kv');
  writeFileSync(path, image);
  const target = await source(10, 7);
  await target.write([{ type: 'put', bucket: Bucket.Alarm, key: Buffer.from('old'), value: Buffer.from('x') }]);
  await loadImage(target, path);
  assert.deepEqual(await dump(target), await dump(await source(3000, 42)));
  assert.equal((await readMeta(target)).consistentIndex, 42n);
});

void test('a load cut short leaves consistent_index at 0; loading again completes it', async () => {
  const image = await imageOf(await source(6000, 99));
  const target = await source(5, 7);
  let writes = 0;
  const failing: Backend = Object.create(target) as Backend;
  failing.write = (ops, options) => (++writes === 3 ? Promise.reject(new Error('disk gone')) : target.write(ops, options));
  await assert.rejects(loadImageBytes(failing, image), /disk gone/);
  assert.equal((await readMeta(target)).consistentIndex, 0n);
  await loadImageBytes(target, image);
  assert.deepEqual(await dump(target), await dump(await source(6000, 99)));
});

void test('a truncated image is refused', async () => {
  const image = await imageOf(await source(3, 1));
  await assert.rejects(async () => {
    for await (const batch of imageRecordBatches((async function* () {
      yield image.subarray(0, image.length - 10);
    })())) assert.ok(batch.length > 0);
  }, /ends in the middle/);
});

/** The image as FORMAT.md spells it, one record at a time (the reference for imagePieces). */
async function referenceImage(be: Backend): Promise<Buffer> {
  const parts: Buffer[] = [Buffer.from('KVSNAP01', 'latin1')];
  for (const bucket of Object.values(Bucket)) {
    for await (const [k, v] of be.iterate(bucket)) {
      const u32 = (n: number): Buffer => {
        const b = Buffer.alloc(4);
        b.writeUInt32BE(n, 0);
        return b;
      };
      parts.push(Buffer.from([bucket.length]), Buffer.from(bucket, 'latin1'), u32(k.length), k, u32(v.length), v);
    }
  }
  parts.push(Buffer.from([0]));
  return Buffer.concat(parts);
}

void test('imagePieces gives the image of FORMAT.md in pieces of about 1 MiB (records bigger than a piece included)', async () => {
  const be = await source(1500, 9);
  await be.write([{ type: 'put', bucket: Bucket.Lease, key: Buffer.from('big'), value: Buffer.alloc(1536 * 1024, 3) }]);
  const view = await be.snapshot();
  const pieces: Buffer[] = [];
  for await (const p of imagePieces(view)) pieces.push(p);
  await view.close();
  assert.ok(pieces.length >= 4 && pieces.length < 10, `${pieces.length} pieces`);
  assert.deepEqual(Buffer.concat(pieces), await referenceImage(be));
});

void test('records read back the same however the image is cut into chunks (one byte each included), and an unknown bucket is refused', async () => {
  const be = await source(40, 3);
  await be.write([{ type: 'put', bucket: Bucket.Lease, key: Buffer.alloc(0), value: Buffer.alloc(0) }]);
  const image = await referenceImage(be);
  const expected: string[] = [];
  for (const bucket of Object.values(Bucket)) for await (const [k, v] of be.iterate(bucket)) expected.push(`${bucket}/${k.toString('hex')}=${v.toString('hex')}`);
  const read = async (chunks: Buffer[]): Promise<string[]> => {
    const out: string[] = [];
    for await (const batch of imageRecordBatches((async function* () {
      yield* chunks;
    })())) for (const [bucket, k, v] of batch) out.push(`${bucket}/${k.toString('hex')}=${v.toString('hex')}`);
    return out;
  };
  for (const size of [1, 2, 3, 7, 64, 4093, image.length]) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < image.length; at += size) chunks.push(image.subarray(at, at + size));
    assert.deepEqual(await read(chunks), expected, `chunks of ${size}`);
  }
  const bad = Buffer.concat([Buffer.from('KVSNAP01', 'latin1'), Buffer.from([3]), Buffer.from('xyz'), Buffer.alloc(8), Buffer.from([0])]);
  await assert.rejects(read([bad]), /unknown bucket "xyz"/);
});
