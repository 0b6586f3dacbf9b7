/** Snapshot markers hide older entries; releaseTo deletes whole old segments only. */
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

import { WalError, type SnapshotMetadata } from '../../../server/wal/index.js';
import { parseSegmentName } from '../../../server/wal/segment-name.js';
import { entries, entry, hardState, indexes, open, range, segmentFiles, tempWalDir } from './helpers.js';

function snap(index: number, term = 1): SnapshotMetadata {
  return { index, term, confState: { voters: [1n, 2n, 3n], learners: [] } };
}

void test('entries at or before the latest snapshot marker are not returned', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  await wal.save(entries(1, 20), hardState(1, 1, 20));
  await wal.saveSnapshot(snap(5));
  await wal.saveSnapshot(snap(10));
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(again.contents.snapshot, snap(10));
  assert.deepEqual(indexes(again.contents.entries), range(11, 20));
  await again.wal.close();
});

void test('a marker beyond the last entry empties the log; appends continue after it', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  await wal.save(entries(1, 5));
  await wal.saveSnapshot(snap(50, 3));
  await assert.rejects(wal.save([entry(52, 3)]), (e: unknown) => e instanceof WalError && e.problem.kind === 'InvalidAppend');
  await wal.save([entry(51, 3)], hardState(3, 2, 51));
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(again.contents.snapshot, snap(50, 3));
  assert.deepEqual(indexes(again.contents.entries), [51]);
  assert.deepEqual(again.contents.hardState, hardState(3, 2, 51));
  await again.wal.close();
});

void test('releaseTo deletes old segments up to the snapshot, never the last one', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024 });
  for (let i = 1; i <= 100; i++) await wal.save([entry(i)], hardState(1, 1, i));
  const before = await segmentFiles(dir);
  assert.ok(before.length >= 5);

  await wal.releaseTo(60);
  assert.deepEqual(await segmentFiles(dir), before, 'nothing is released without a snapshot marker');

  await wal.saveSnapshot(snap(60));
  await wal.releaseTo(1000);
  const after = await segmentFiles(dir);
  assert.ok(after.length < before.length, 'old segments were deleted');
  const firstKept = parseSegmentName(after[0] ?? '');
  assert.ok(firstKept !== undefined && firstKept.index <= 61, 'the segment holding entry 61 is kept');
  await wal.close();

  const again = await open(dir, { segmentBytes: 1024 });
  assert.deepEqual(again.contents.snapshot, snap(60));
  assert.deepEqual(indexes(again.contents.entries), range(61, 100));
  assert.deepEqual(again.contents.hardState, hardState(1, 1, 100));

  await again.wal.saveSnapshot(snap(100));
  await again.wal.releaseTo(100);
  const last = await segmentFiles(dir);
  assert.equal(last.length, 1, 'only the open segment remains');
  await again.wal.save([entry(101)], hardState(1, 1, 101));
  await again.wal.close();

  const third = await open(dir);
  assert.deepEqual(third.contents.metadata, Buffer.from('member-1/cluster-7'));
  assert.deepEqual(third.contents.snapshot, snap(100));
  assert.deepEqual(indexes(third.contents.entries), [101]);
  assert.deepEqual(third.contents.hardState, hardState(1, 1, 101));
  await third.wal.close();
});

void test('after release, the oldest segment may start with a stale marker; later markers cover the gap', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024 });
  for (let i = 1; i <= 30; i++) await wal.save([entry(i)]);
  await wal.saveSnapshot(snap(10));
  for (let i = 31; i <= 120; i++) await wal.save([entry(i)]);
  await wal.saveSnapshot(snap(90));
  await wal.releaseTo(90);
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(again.contents.snapshot, snap(90));
  assert.deepEqual(indexes(again.contents.entries), range(91, 120));
  await again.wal.save([entry(121)]);
  await again.wal.close();
});

void test('segments deleted by hand past the snapshot marker are reported, not skipped', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024 });
  for (let i = 1; i <= 10; i++) await wal.save([entry(i)]);
  await wal.saveSnapshot(snap(5));
  for (let i = 11; i <= 120; i++) await wal.save([entry(i)]);
  await wal.close();
  const files = await segmentFiles(dir);
  assert.ok(files.length >= 5);
  for (const f of files.slice(0, 3)) await rm(join(dir, f));
  await assert.rejects(open(dir), (e: unknown) => e instanceof WalError && e.problem.kind === 'Corrupt' && /entries are missing/.test(e.message));
});
