/** Segment rotation: new segments named (sequence, first index), the log reads back across them. */
import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

import { parseSegmentName } from '../../../server/wal/segment-name.js';
import { entries, entry, hardState, indexes, open, range, segmentFiles, tempWalDir } from './helpers.js';

void test('segments rotate at segmentBytes and reopen across all of them', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 1024 });
  for (let i = 1; i <= 120; i += 3) await wal.save(entries(i, i + 2), hardState(1, 1, i));
  await wal.close();

  const files = await segmentFiles(dir);
  assert.ok(files.length >= 5, `expected several segments, got ${files.length}`);
  const names = files.map((f) => parseSegmentName(f));
  names.forEach((n, k) => {
    assert.ok(n !== undefined);
    assert.equal(n.seq, BigInt(k));
    if (k > 0) assert.equal((n.index - 1n) % 3n, 0n, `segment ${n.name} starts at a save's first entry`);
  });
  for (const file of files.slice(0, -1)) {
    assert.ok((await stat(join(dir, file))).size < 1024 + 1024, `${file} was finished without its preallocated zeros`);
  }

  const again = await open(dir, { segmentBytes: 1024 });
  assert.deepEqual(indexes(again.contents.entries), range(1, 120));
  assert.deepEqual(again.contents.hardState, hardState(1, 1, 118));
  for (let i = 121; i <= 200; i++) await again.wal.save([entry(i, 2)], hardState(2, 1, i));
  await again.wal.close();

  const more = await segmentFiles(dir);
  assert.ok(more.length > files.length);
  const third = await open(dir);
  assert.deepEqual(indexes(third.contents.entries), range(1, 200));
  assert.deepEqual(third.contents.hardState, hardState(2, 1, 200));
  await third.wal.close();
});

void test('a write larger than a segment still goes into one segment', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 512 });
  const big = Array.from({ length: 50 }, (_, k) => entry(k + 1, 1, 'z'.repeat(100)));
  await wal.save(big);
  await wal.save(entries(51, 51));
  await wal.close();
  const files = await segmentFiles(dir);
  assert.equal(files.length, 2);
  assert.equal(parseSegmentName(files[1] ?? '')?.index, 51n);
  const again = await open(dir);
  assert.deepEqual(indexes(again.contents.entries), range(1, 51));
  await again.wal.close();
});
