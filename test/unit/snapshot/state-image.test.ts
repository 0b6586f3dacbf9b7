/**
 * The leader → follower state image (server/snapshot/state-image/): the bbolt file of a pinned
 * MVCC store, v2 store included, followed by its SHA-256; received into a file through
 * `.part`; loaded into a backend holding other data, which then holds exactly the source's
 * records in every bucket. A user's snapshot still leaves the v2 store out. A body with a
 * wrong trailer, cut short or from a failing producer leaves no file; a truncated file or one
 * with a bucket kvstore does not have is refused before the backend is touched; a load cut
 * short leaves consistent_index at 0 and loading again completes it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readMeta } from '../../../server/mvcc/meta.js';
import type { PinnedSnapshot } from '../../../server/mvcc/types.js';
import { openBoltBytes, writeBolt } from '../../../server/snapshot/bbolt/index.js';
import { loadImageBytes, loadImageFile } from '../../../server/snapshot/state-image/load.js';
import { receiveImage } from '../../../server/snapshot/state-image/receive.js';
import { PIECE_BYTES, stateImagePieces } from '../../../server/snapshot/state-image/send.js';
import { checkTrailer } from '../../../server/snapshot/state-image/sha256-trailer.js';
import { streamSnapshot } from '../../../server/snapshot/stream.js';
import { StreamedSnapshot } from '../../../server/snapshot/streamed-snapshot.js';
import { Bucket, type Backend } from '../../../server/storage/backend.js';
import { openLevelBackend } from '../../../server/storage/level-backend.js';
import { collect, dump, filledStore, putsOf, stateImageOf } from './state-image-fixture.js';

const root = mkdtempSync(join(tmpdir(), 'state-image-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirNo = 0;
const freshDir = (): string => mkdtempSync(join(root, `d${++dirNo}-`));

async function* piecesOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function clusterKeys(file: Buffer): Promise<string[]> {
  const reader = await openBoltBytes(file);
  const keys: string[] = [];
  for await (const [k] of reader.entries(Bucket.Cluster)) keys.push(k.toString());
  await reader.close();
  return keys;
}

void test('a state image streamed from a pinned store, received into a file and loaded over other data gives every bucket record for record', async () => {
  const source = await filledStore(6000, 4242, 'src');
  const pieces = await stateImageOf(source);
  const body = Buffer.concat(pieces);
  assert.ok(pieces.length > 2, `${pieces.length} pieces`);
  for (const p of pieces.slice(0, -2)) assert.equal(p.length, PIECE_BYTES);
  assert.equal(pieces.at(-1)!.length, 32, 'the SHA-256 comes last, on its own');
  assert.ok(checkTrailer(body).ok);

  const dir = freshDir();
  const path = join(dir, '0000000000001092.snap.db');
  assert.equal(await receiveImage(piecesOf(body, 64 * 1024 + 7), path), body.length);
  assert.deepEqual(readdirSync(dir), ['0000000000001092.snap.db'], 'no .part left');
  assert.ok(readFileSync(path).equals(body));

  const target = await openLevelBackend(join(dir, 'db'));
  try {
    const other = await filledStore(300, 7, 'other');
    await target.write(await putsOf(other.backend));
    await loadImageFile(target, path);
    const want = await dump(source.backend);
    assert.ok(want.some((r) => r.startsWith(`cluster/${Buffer.from('v2store').toString('hex')}=`)), 'the source holds a v2 store');
    for (const bucket of Object.values(Bucket)) assert.ok(want.some((r) => r.startsWith(`${bucket}/`)), `the source has records in ${bucket}`);
    assert.deepEqual(await dump(target), want);
    assert.equal((await readMeta(target)).consistentIndex, 4242n);
  } finally {
    await target.close();
  }
});

void test('the v2 store is in the state image and left out of a user snapshot (Maintenance.Snapshot)', async () => {
  const filled = await filledStore(50, 3, 'v2');
  const { store } = filled;
  const state = Buffer.concat(await stateImageOf(filled));
  const blobs: Buffer[] = [];
  for await (const m of streamSnapshot(() => StreamedSnapshot.start(() => store.pinSnapshot()))) blobs.push(Buffer.from(m.blob));
  const user = Buffer.concat(blobs);
  assert.deepEqual(await clusterKeys(state), ['clusterVersion', 'v2store']);
  assert.deepEqual(await clusterKeys(user), ['clusterVersion']);
  assert.ok(checkTrailer(user).ok, 'the same trailer rule');
});

void test('a body with a wrong trailer, a changed byte or cut short is refused and leaves no file', async () => {
  const filled = await filledStore(2000, 9, 'bad');
  const body = Buffer.concat(await stateImageOf(filled));
  const flipped = (at: number): Buffer => {
    const copy = Buffer.from(body);
    copy[at]! ^= 0x40;
    return copy;
  };
  const cases: [string, Buffer][] = [
    ['trailer byte changed', flipped(body.length - 5)],
    ['page byte changed', flipped(5000)],
    ['last page missing', Buffer.concat([body.subarray(0, body.length - 32 - 4096), body.subarray(body.length - 32)])],
    ['cut short', body.subarray(0, body.length - 1000)],
    ['trailer missing', body.subarray(0, body.length - 32)],
    ['shorter than a trailer', body.subarray(0, 20)],
  ];
  for (const [what, bytes] of cases) {
    const dir = freshDir();
    const path = join(dir, 'x.snap.db');
    await assert.rejects(receiveImage(piecesOf(bytes, 10_000), path), /SHA-256/, what);
    assert.deepEqual(readdirSync(dir), [], `${what}: no file left`);
  }
});

void test('a producer that fails (the ledger does not match the view) ends the body before its trailer: no file, view released', async () => {
  const { backend, store } = await filledStore(3000, 5, 'wrong');
  let open = 0;
  const pin = async (): Promise<PinnedSnapshot> => {
    const pinned = await store.pinSnapshot();
    open++;
    const valueLength = Uint32Array.from(pinned.records.valueLength);
    valueLength[valueLength.length - 3]! += 1;
    const v = pinned.view;
    return { view: { get: v.get.bind(v), iterate: v.iterate.bind(v), batches: v.batches.bind(v), close: () => ((open -= 1), v.close()) }, records: { ...pinned.records, valueLength } };
  };
  const image = await StreamedSnapshot.start(pin, { keepPrivateKeys: true });
  const dir = freshDir();
  await assert.rejects(receiveImage(stateImagePieces(image), join(dir, 'x.snap.db')), /element \d+ of bucket key is/);
  assert.deepEqual(readdirSync(dir), []);
  assert.equal(open, 0, 'view released');
  assert.ok((await dump(backend)).length > 0);
});

void test('a truncated file and a file with a bucket kvstore does not have are refused before the backend is touched', async () => {
  const filled = await filledStore(2000, 11, 'trunc');
  const body = Buffer.concat(await stateImageOf(filled));
  const kept = await filledStore(20, 77, 'kept');
  const before = await dump(kept.backend);
  const dir = freshDir();
  const truncated = join(dir, 'truncated.snap.db');
  writeFileSync(truncated, body.subarray(0, body.length - 32 - 3 * 4096));
  await assert.rejects(loadImageFile(kept.backend, truncated), (e: Error) => /truncated/.test(String((e.cause as Error | undefined)?.message)));
  const foreign = join(dir, 'foreign.snap.db');
  await writeBolt(foreign, [
    { name: 'meta', entries: [[Buffer.from('consistent_index'), Buffer.alloc(8, 1)]] },
    { name: 'zzz', entries: [[Buffer.from('k'), Buffer.from('v')]] },
  ], { sync: false });
  await assert.rejects(loadImageFile(kept.backend, foreign), /buckets kvstore does not have: "zzz"/);
  const noIndex = join(dir, 'no-index.snap.db');
  await writeBolt(noIndex, [{ name: 'meta', entries: [] }], { sync: false });
  await assert.rejects(loadImageFile(kept.backend, noIndex), /no meta\/consistent_index/);
  assert.deepEqual(await dump(kept.backend), before);
});

void test('a load cut short leaves consistent_index at 0; loading again completes it', async () => {
  const source = await filledStore(40_000, 99, 'cut');
  const body = Buffer.concat(await stateImageOf(source));
  const target = (await filledStore(50, 7, 'old')).backend;
  let writes = 0;
  const failing: Backend = Object.create(target) as Backend;
  failing.write = (ops, options) => (++writes === 3 ? Promise.reject(new Error('disk gone')) : target.write(ops, options));
  await assert.rejects(loadImageBytes(failing, body), /disk gone/);
  assert.ok(writes === 3, 'failed after a batch of records was written');
  assert.equal((await readMeta(target)).consistentIndex, 0n);
  await loadImageBytes(target, body);
  assert.deepEqual(await dump(target), await dump(source.backend));
  assert.equal((await readMeta(target)).consistentIndex, 99n);
});

void test('pieces read from the image close it when abandoned', async () => {
  const filled = await filledStore(12_000, 1, 'abandon');
  const { store } = filled;
  let closed = 0;
  const image = await StreamedSnapshot.start(async () => {
    const pinned = await store.pinSnapshot();
    const v = pinned.view;
    return { ...pinned, view: { get: v.get.bind(v), iterate: v.iterate.bind(v), batches: v.batches.bind(v), close: () => ((closed += 1), v.close()) } };
  }, { keepPrivateKeys: true });
  assert.ok(image.size > PIECE_BYTES);
  for await (const piece of stateImagePieces(image)) {
    assert.equal(piece.length, PIECE_BYTES);
    break;
  }
  assert.equal(closed, 1);
  await assert.rejects(collect(stateImagePieces(image)), /closed before it was read/, 'nothing more once closed');
});
