/** Reopening a store (memory and level backends) recovers the same reads, history, hashes and counters. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { openMvccStore } from '../../../server/mvcc/store.js';
import { ALL, levelFixture, observeStore, params, put, rangeShow, writeHistory } from './helpers.js';

async function roundTrip(open: () => Promise<Backend>, reopen: () => Promise<Backend>): Promise<void> {
  const s = await openMvccStore(await open());
  await writeHistory(s);
  const before = await observeStore(s);
  await s.settle();
  const again = await openMvccStore(await reopen());
  assert.deepEqual(await observeStore(again), before);
  assert.equal(put(again, 'e', '1'), s.currentRevision + 1n);
}

void describe('recovery', () => {
  void it('memory backend: reopen equals before', async () => {
    const backend = createMemoryBackend();
    await roundTrip(() => Promise.resolve(backend), () => Promise.resolve(backend.copy()));
  });

  void it('level backend: reopen equals before', async () => {
    const fx = await levelFixture();
    try {
      await roundTrip(() => Promise.resolve(fx.backend()), () => fx.reopen());
    } finally {
      await fx.dispose();
    }
  });

  void it('changes not flushed are lost on reopen; the consistent index says how far the backend got', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    put(s, 'a', '1');
    await s.flush(5n);
    put(s, 'a', '2');
    const again = await openMvccStore(backend.copy());
    assert.equal(again.consistentIndex, 5n);
    assert.equal(again.currentRevision, 2n);
    assert.deepEqual(await rangeShow(again, params(ALL)), ['a=1@2/2/1']);
  });
});
