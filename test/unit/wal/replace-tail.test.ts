/** Raft log truncation: an entry whose index is already present replaces the tail from there. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { entries, entry, indexes, open, range, tempWalDir } from './helpers.js';

void test('a lower index replaces the tail, also after reopening', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  await wal.save(entries(1, 10, 1));
  await wal.save(entries(6, 8, 2));
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 8));
  assert.deepEqual(
    again.contents.entries.map((e) => e.term),
    [1, 1, 1, 1, 1, 2, 2, 2],
  );
  await again.wal.save([entry(9, 3)]);
  await again.wal.save([entry(1, 4)]);
  await again.wal.save([entry(2, 4)]);
  await again.wal.close();
  const third = await open(dir);
  assert.deepEqual(indexes(third.contents.entries), range(1, 2));
  assert.deepEqual(
    third.contents.entries.map((e) => e.term),
    [4, 4],
  );
  await third.wal.close();
});

void test('replacement reaches back into earlier segments', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024 });
  for (let i = 1; i <= 80; i++) await wal.save([entry(i, 1)]);
  await wal.save(entries(5, 7, 2));
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 7));
  assert.equal(again.contents.entries[4]?.term, 2);
  assert.equal(again.contents.entries[3]?.term, 1);
  await again.wal.close();
});

void test('replacements queued together in one write apply in call order', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir);
  await Promise.all([wal.save(entries(1, 5, 1)), wal.save(entries(3, 4, 2)), wal.save(entries(4, 6, 3))]);
  await wal.close();
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 6));
  assert.deepEqual(
    again.contents.entries.map((e) => e.term),
    [1, 1, 2, 3, 3, 3],
  );
  await again.wal.close();
});
