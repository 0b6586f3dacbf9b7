/** Create, save, reopen: everything saved comes back; creation is atomic and idempotent. */
import assert from 'node:assert/strict';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { test } from 'node:test';

import { walExists, WalError } from '../../../server/wal/index.js';
import { entries, entry, hardState, indexes, META, open, range, segmentFiles, tempWalDir } from './helpers.js';

void test('a new WAL is created with one segment and empty contents', async (t) => {
  const dir = await tempWalDir(t);
  assert.equal(await walExists(dir), false);
  const { wal, contents, created } = await open(dir);
  assert.equal(created, true);
  assert.deepEqual(contents.metadata, META);
  assert.deepEqual(contents.hardState, hardState(0, 0, 0));
  assert.equal(contents.snapshot, undefined);
  assert.deepEqual(contents.entries, []);
  await wal.close();
  assert.equal(await walExists(dir), true);
  assert.deepEqual(await segmentFiles(dir), ['0000000000000000-0000000000000000.wal']);
  assert.deepEqual((await readdir(dirname(dir))).sort(), ['wal']);
});

void test('entries, hard state and metadata round-trip', async (t) => {
  const dir = await tempWalDir(t);
  const first = await open(dir);
  await first.wal.save(entries(1, 3), hardState(1, 1, 0));
  await first.wal.save([entry(4, 2, ''), { term: 2, index: 5, type: 1, data: Buffer.from([0, 1, 2, 255]) }], hardState(2, 1, 3));
  await first.wal.save([], hardState(2, 1, 5));
  await first.wal.close();

  const again = await open(dir, { metadata: Buffer.from('ignored on reopen') });
  assert.equal(again.created, false);
  assert.deepEqual(again.contents.metadata, META);
  assert.deepEqual(again.contents.hardState, hardState(2, 1, 5));
  assert.deepEqual(indexes(again.contents.entries), range(1, 5));
  assert.deepEqual(again.contents.entries[3], entry(4, 2, ''));
  assert.deepEqual(again.contents.entries[4], { term: 2, index: 5, type: 1, data: Buffer.from([0, 1, 2, 255]) });
  assert.equal(again.contents.tailRepair, undefined);
  await again.wal.save(entries(6, 6), hardState(2, 1, 6));
  await again.wal.close();

  const third = await open(dir);
  assert.deepEqual(indexes(third.contents.entries), range(1, 6));
  assert.deepEqual(third.contents.hardState, hardState(2, 1, 6));
  await third.wal.close();
});

void test('preallocated zeros after the data are the clean end of the log', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { preallocateBytes: 64 * 1024 });
  await wal.save(entries(1, 2), hardState(1, 1, 1));
  await wal.close();
  const file = `${dir}/0000000000000000-0000000000000000.wal`;
  assert.ok((await stat(file)).size > 64 * 1024);
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 2));
  assert.equal(again.contents.tailRepair, undefined);
  await again.wal.close();
});

// The risk of filling in the background is a fill landing on data written meanwhile: the CRC
// chain would break and the reopen below would fail.
void test('with zeros written ahead beside the appends, the file never ends before the data and the log reads back whole', async (t) => {
  const dir = await tempWalDir(t);
  const plainDir = await tempWalDir(t);
  const { wal } = await open(dir, { preallocateBytes: 4096 });
  // The same writes without preallocation: its file ends where the data ends.
  const plain = await open(plainDir, { preallocateBytes: 0 });
  const name = '0000000000000000-0000000000000000.wal';
  let ahead = 0;
  for (let i = 1; i <= 200; i++) {
    const e = [entry(i, 1, `payload-${i}`.padEnd(200, '.'))];
    await Promise.all([wal.save(e, hardState(1, 1, i - 1)), plain.wal.save(e, hardState(1, 1, i - 1))]);
    const [size, dataEnd] = await Promise.all([stat(`${dir}/${name}`), stat(`${plainDir}/${name}`)]);
    assert.ok(size.size >= dataEnd.size);
    if (size.size > dataEnd.size) ahead++;
  }
  await Promise.all([wal.close(), plain.wal.close()]);
  assert.ok(ahead > 150, `the file ran ahead of the data after only ${ahead} of 200 writes`);
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 200));
  assert.equal(again.contents.tailRepair, undefined);
  await again.wal.close();
});

void test('a stale wal.tmp from an interrupted creation is replaced', async (t) => {
  const dir = await tempWalDir(t);
  await mkdir(`${dir}.tmp`, { recursive: true });
  await writeFile(`${dir}.tmp/0000000000000000-0000000000000000.wal`, 'half written');
  const { wal, created } = await open(dir);
  assert.equal(created, true);
  await wal.save(entries(1, 1));
  await wal.close();
  assert.deepEqual((await readdir(dirname(dir))).sort(), ['wal']);
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 1));
  await again.wal.close();
});

void test('calls after close are rejected with Closed', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  await wal.close();
  await assert.rejects(wal.save(entries(1, 1)), (e: unknown) => e instanceof WalError && e.problem.kind === 'Closed');
});

void test('saves waiting when close is called still complete', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  const pending = [wal.save(entries(1, 1)), wal.save(entries(2, 2)), wal.save(entries(3, 3))];
  await wal.close();
  await Promise.all(pending);
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 3));
  await again.wal.close();
});

void test('datasync mode writes the same log', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { syncMode: 'datasync' });
  await Promise.all([wal.save(entries(1, 2)), wal.save(entries(3, 4), hardState(1, 1, 4))]);
  await wal.close();
  const again = await open(dir, { syncMode: 'datasync' });
  assert.deepEqual(indexes(again.contents.entries), range(1, 4));
  assert.deepEqual(again.contents.hardState, hardState(1, 1, 4));
  await again.wal.close();
});

void test('an empty directory becomes the WAL; a directory holding other files is refused, not deleted', async (t) => {
  const dir = await tempWalDir(t);
  await mkdir(dir, { recursive: true });
  const { wal, created } = await open(dir);
  assert.equal(created, true);
  await wal.close();

  const other = `${dir}-not-a-wal`;
  await mkdir(other);
  await writeFile(`${other}/precious.txt`, 'keep me');
  await assert.rejects(open(other), /not WAL segments/);
  assert.deepEqual(await readdir(other), ['precious.txt']);
});

void test('one large write is encoded and read back', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  const big = Array.from({ length: 60 }, (_, k) => entry(k + 1, 1, String(k % 10).repeat(100_000)));
  await wal.save(big);
  await wal.save(entries(61, 62));
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 62));
  assert.deepEqual(again.contents.entries[59], big[59]);
  await again.wal.close();
});
