/** Reopening a store (memory and level backends) recovers the same reads, history, hashes and counters. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import { ALL, b, del, levelFixture, params, put, rangeShow, showEvent, unwrap } from './helpers.js';

/** Everything observable about a store, as strings. */
async function observe(s: MvccStoreImpl): Promise<string[]> {
  const out = [`rev=${s.currentRevision} compact=${s.compactRevision} ci=${s.consistentIndex} keys=${s.keyCount}`];
  for (let rev = s.compactRevision > 0n ? s.compactRevision : 1n; rev <= s.currentRevision; rev++) {
    out.push(`@${rev}: ${(await rangeShow(s, params({ ...ALL, revision: rev }))).join(' ')}`);
  }
  const from = s.compactRevision > 0n ? s.compactRevision : 1n;
  out.push(...unwrap(await s.history(from, s.currentRevision, ALL.key, ALL.rangeEnd)).map(showEvent));
  out.push(`hashkv=${JSON.stringify(unwrap(await s.hashKV(0n)).hash)} hash=${await s.hash()}`);
  return out;
}

async function writeSome(s: MvccStoreImpl): Promise<void> {
  put(s, 'a', '1');
  put(s, 'b', '1', 3n);
  del(s, 'a');
  put(s, 'a', '2');
  await s.flush(10n);
  const txn = s.beginWrite();
  txn.put(b('c'), b('1'), 0n);
  txn.deleteRange(b('b'), b('c'));
  txn.put(b('b'), b('again'), 0n);
  txn.end();
  put(s, 'a', '3');
  await unwrap(s.compact(4n)).done;
  put(s, 'd', '1');
  await s.flush(11n);
}

async function roundTrip(open: () => Promise<Backend>, reopen: () => Promise<Backend>): Promise<void> {
  const s = await openMvccStore(await open());
  await writeSome(s);
  const before = await observe(s);
  await s.settle();
  const again = await openMvccStore(await reopen());
  assert.deepEqual(await observe(again), before);
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
