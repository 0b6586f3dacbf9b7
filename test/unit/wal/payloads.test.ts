/**
 * Where the log puts entry payloads: `save` tells, `readPayload` reads them back, a log opened
 * with `payloads: 'files'` hands out locations instead of data, and a released segment is gone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { PayloadAt } from '../../../server/wal/index.js';
import { entries, entry, hardState, indexes, open, range, segmentFiles, tempWalDir } from './helpers.js';

const big = (i: number): string => `payload-${i}-`.padEnd(300 + (i % 7) * 50, String.fromCharCode(97 + (i % 26)));

void test('save resolves with each payload location and readPayload reads the bytes back', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 4096 });
  const placed: PayloadAt[] = [];
  for (let i = 1; i <= 60; i += 2) {
    const batch = [entry(i, 1, big(i)), entry(i + 1, 1, big(i + 1))];
    const at = await wal.save(batch, hardState(1, 1, i));
    assert.equal(at.length, 2);
    placed.push(...at);
  }
  assert.ok((await segmentFiles(dir)).length > 3, 'the payloads span several segments');
  placed.forEach((at, k) => {
    assert.equal(at.bytes, Buffer.byteLength(big(k + 1)));
    assert.equal(wal.readPayload(at).toString(), big(k + 1));
  });
  assert.deepEqual(await wal.save([], hardState(1, 1, 60)), []);
  await wal.close();
});

void test("a log opened with payloads 'files' keeps locations, not data, and they read back", async (t) => {
  const dir = await tempWalDir(t);
  const first = await open(dir, { segmentBytes: 4096 });
  for (let i = 1; i <= 40; i++) await first.wal.save([entry(i, 1, big(i))], hardState(1, 1, i - 1));
  await first.wal.save([entry(41, 2, '')], hardState(2, 1, 40));
  // A new leader's entries replace the tail from index 38.
  await first.wal.save([entry(38, 3, 'replaced-38'), entry(39, 3, 'replaced-39')], hardState(3, 1, 37));
  await first.wal.close();

  const again = await open(dir, { segmentBytes: 4096, payloads: 'files' });
  assert.deepEqual(indexes(again.contents.entries), range(1, 39));
  for (const e of again.contents.entries) {
    if (e.index >= 38) {
      assert.equal(e.data.toString(), `replaced-${e.index}`, 'a small payload stays in memory');
      assert.equal(e.at, undefined);
      continue;
    }
    assert.equal(e.data.length, 0, `entry ${e.index} holds no data in memory`);
    assert.ok(e.at !== undefined);
    assert.equal(again.wal.readPayload(e.at).toString(), big(e.index));
  }
  await again.wal.close();

  const inMemory = await open(dir, { segmentBytes: 4096 });
  assert.equal(inMemory.contents.entries[0]!.at, undefined);
  assert.equal(inMemory.contents.entries[0]!.data.toString(), big(1));
  await inMemory.wal.close();
});

void test('a released segment can no longer be read from', async (t) => {
  const dir = await tempWalDir(t);
  const { wal } = await open(dir, { segmentBytes: 512 });
  const placed: PayloadAt[] = [];
  for (let i = 1; i <= 30; i++) placed.push(...(await wal.save(entries(i, i), hardState(1, 1, i))));
  assert.equal(wal.readPayload(placed[0]!).toString(), 'value-1');
  await wal.saveSnapshot({ index: 20, term: 1, confState: { voters: [1n], learners: [] } });
  await wal.releaseTo(20);
  assert.ok((await segmentFiles(dir)).length > 1);
  assert.throws(() => wal.readPayload(placed[0]!), /not part of the log/);
  assert.equal(wal.readPayload(placed[29]!).toString(), 'value-30');
  await wal.close();
});
