/**
 * The snapshot image produced on a worker thread (image-thread.ts) over a LevelDB backend the
 * test holds open: the bytes are the image this thread produces from the same view, a record
 * of another size than planned ends it with an error before the checksum, and however the
 * image ends — read to the end, closed early, failed — the worker has closed its handle on
 * the database (a plain open of the directory, which fails while any handle is open, succeeds
 * once the test closed its own).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ClassicLevel } from 'classic-level';
import type { RecordSizes } from '../../../server/mvcc/record-ledger.js';
import { encodeKeyValue } from '../../../server/mvcc/kv-codec.js';
import { SLOT_BYTES } from '../../../server/snapshot/image-thread.js';
import { StreamedSnapshot } from '../../../server/snapshot/streamed-snapshot.js';
import { Bucket } from '../../../server/storage/backend.js';
import { openLevelBackend, type LevelBackend } from '../../../server/storage/level-backend.js';
import { pinByScan, sizesOf } from './pinned-by-scan.js';
import { fillShaped, revisionKey, type Shape } from './shaped-backend.js';

const root = mkdtempSync(join(tmpdir(), 'image-thread-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirNo = 0;

async function levelOf(shape: Shape): Promise<LevelBackend> {
  const backend = await openLevelBackend(join(root, `db${++dirNo}`));
  await fillShaped(backend, shape);
  return backend;
}

async function readAll(image: StreamedSnapshot, stopAfter = Infinity): Promise<Buffer> {
  const parts: Buffer[] = [];
  let read = 0;
  while (image.remaining > 0 && read < stopAfter) {
    const part = Buffer.alloc(Math.min(image.remaining, 5 * 4096 + 77));
    await image.readInto([part]);
    parts.push(part);
    read += part.length;
  }
  return Buffer.concat(parts);
}

/** The sizes of the `key` records of the backend now, pinning the worker's view right after reading them (nothing writes meanwhile). */
function pinOnThread(backend: LevelBackend, change?: (r: RecordSizes) => RecordSizes) {
  return async (pinView: () => Promise<void>): Promise<RecordSizes> => {
    const view = await backend.snapshot();
    const records = await sizesOf(view);
    await view.close();
    await pinView();
    return change === undefined ? records : change(records);
  };
}

/** Closes `backend` and shows no other handle on its directory is left: a plain (single-thread) open succeeds. */
async function assertReleased(backend: LevelBackend): Promise<void> {
  await backend.close();
  const db = new ClassicLevel(backend.location);
  await db.open({ createIfMissing: false });
  await db.close();
}

for (const shape of [
  { records: 0, maxValue: 10, seed: 11 },
  { records: 30_000, maxValue: 300, seed: 12 },
  { records: 2000, maxValue: 6000, seed: 13 },
]) {
  void test(`image on a worker = image on this thread: ${shape.records} records, values up to ${shape.maxValue} B`, async () => {
    const backend = await levelOf(shape);
    const here = await StreamedSnapshot.start(pinByScan(backend));
    const expected = await readAll(here);
    const expectedDigest = here.digest();
    await here.close();
    const there = await StreamedSnapshot.startOnThread(backend.location, pinOnThread(backend));
    assert.equal(there.size, expected.length);
    const got = await readAll(there);
    assert.ok(got.equals(expected), 'same bytes');
    assert.ok(there.digest().equals(expectedDigest), 'same checksum');
    await there.close();
    await assertReleased(backend);
  });
}

void test('a value longer than a ring slot crosses in several pieces: same bytes', async () => {
  const backend = await levelOf({ records: 100, maxValue: 100, seed: 19 });
  const key = Buffer.from('big');
  const value = encodeKeyValue({ key, createRevision: 900n, modRevision: 900n, version: 1n, value: Buffer.alloc(3 * SLOT_BYTES + 12_345, 0xab), lease: 0n });
  await backend.write([{ type: 'put', bucket: Bucket.Key, key: revisionKey(900, 0, false), value }]);
  const here = await StreamedSnapshot.start(pinByScan(backend));
  const expected = await readAll(here);
  await here.close();
  const there = await StreamedSnapshot.startOnThread(backend.location, pinOnThread(backend));
  assert.ok((await readAll(there)).equals(expected));
  await there.close();
  await assertReleased(backend);
});

void test('a record of another size than planned ends the worker image with an error before its checksum', async () => {
  const backend = await levelOf({ records: 8000, maxValue: 300, seed: 14 });
  const image = await StreamedSnapshot.startOnThread(
    backend.location,
    pinOnThread(backend, (r) => {
      const valueLength = Uint32Array.from(r.valueLength);
      valueLength[r.length - 3]! += 1;
      return { ...r, valueLength };
    }),
  );
  await assert.rejects(readAll(image), /element \d+ of bucket key is/);
  assert.throws(() => image.digest(), /unread/);
  await image.close();
  await assertReleased(backend);
});

void test('a worker image closed before it was read releases the worker and its database handle', async () => {
  const backend = await levelOf({ records: 40_000, maxValue: 300, seed: 15 });
  const image = await StreamedSnapshot.startOnThread(backend.location, pinOnThread(backend));
  await readAll(image, 300_000);
  assert.ok(image.remaining > 0);
  await image.close();
  await assertReleased(backend);
});

void test('writes after the pin are not in the worker image', async () => {
  const backend = await levelOf({ records: 5000, maxValue: 200, seed: 16 });
  const here = await StreamedSnapshot.start(pinByScan(backend));
  const expected = await readAll(here);
  await here.close();
  const image = await StreamedSnapshot.startOnThread(backend.location, async (pinView) => {
    const records = await pinOnThread(backend)(pinView);
    await fillShaped(backend, { records: 5000, maxValue: 200, seed: 17 });
    return records;
  });
  assert.ok((await readAll(image)).equals(expected));
  await image.close();
  await assertReleased(backend);
});
