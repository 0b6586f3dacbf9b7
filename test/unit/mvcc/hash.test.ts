/** hash() and hashKV(): independent of flush timing and of background compaction progress. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Bucket } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import { del, levelFixture, put, unwrap } from './helpers.js';

async function script(s: MvccStoreImpl, flushEvery: number): Promise<void> {
  for (let i = 0; i < 20; i++) {
    if (i % 3 === 2) del(s, `k${i % 5}`);
    else put(s, `k${i % 5}`, `v${i}`);
    if (flushEvery > 0 && i % flushEvery === 0) await s.flush(BigInt(i));
  }
}

void describe('hash', () => {
  void it('hashKV does not depend on when changes were flushed', async () => {
    const a = await openMvccStore(createMemoryBackend());
    const c = await openMvccStore(createMemoryBackend());
    await script(a, 1);
    await script(c, 0);
    assert.equal(a.currentRevision, c.currentRevision);
    for (let rev = 0n; rev <= a.currentRevision; rev++) {
      assert.deepEqual(await a.hashKV(rev), await c.hashKV(rev), `rev ${rev}`);
    }
    assert.equal(await a.hash(), await c.hash());
    const before = unwrap(await a.hashKV(5n)).hash;
    put(a, 'zz', 'new');
    assert.equal(unwrap(await a.hashKV(5n)).hash, before);
    assert.notEqual(unwrap(await a.hashKV(0n)).hash, unwrap(await c.hashKV(0n)).hash);
  });

  void it('hashKV is the same whether the compaction finished or not, and checks revisions', async () => {
    const a = await openMvccStore(createMemoryBackend());
    const c = await openMvccStore(createMemoryBackend());
    await script(a, 4);
    await script(c, 1);
    const doneA = unwrap(a.compact(10n)).done;
    const doneC = unwrap(c.compact(10n)).done;
    await doneC;
    const whileRunning = await a.hashKV(0n);
    await doneA;
    assert.deepEqual(whileRunning, await a.hashKV(0n));
    assert.deepEqual(await a.hashKV(0n), await c.hashKV(0n));
    assert.equal(unwrap(await a.hashKV(0n)).compactRevision, 10n);
    assert.deepEqual(await a.hashKV(10n), { ok: false, error: { kind: 'Compacted', compactRevision: 10n } });
    assert.deepEqual(await a.hashKV(100n), { ok: false, error: { kind: 'FutureRev', currentRevision: a.currentRevision } });
    assert.deepEqual(await a.hashKV(11n), await c.hashKV(11n));
  });

  void it('hashKV and hash are the same over LevelDB (keys read in bulk behind their bucket prefix) as in memory, compacted or not', async () => {
    const level = await levelFixture();
    try {
      const a = await openMvccStore(level.backend());
      const c = await openMvccStore(createMemoryBackend());
      for (let i = 0; i < 3000; i++) {
        for (const s of [a, c]) put(s, `k${i % 700}`, `v${i}`.repeat(1 + (i % 7)));
        if (i % 500 === 0) for (const s of [a, c]) await s.flush(BigInt(i + 1));
      }
      for (const s of [a, c]) del(s, 'k1');
      await a.flush(3001n);
      for (const rev of [0n, 5n, 1500n]) assert.deepEqual(await a.hashKV(rev), await c.hashKV(rev), `rev ${rev}`);
      assert.equal(await a.hash(), await c.hash());
      await unwrap(a.compact(2000n)).done;
      await unwrap(c.compact(2000n)).done;
      assert.deepEqual(await a.hashKV(0n), await c.hashKV(0n));
      assert.deepEqual(await a.hashKV(2500n), await c.hashKV(2500n));
    } finally {
      await level.dispose();
    }
  });

  void it('hash covers the other buckets except meta', async () => {
    const s = await openMvccStore(createMemoryBackend());
    put(s, 'a', '1');
    await s.flush(1n);
    const h1 = await s.hash();
    await s.flush(2n, [{ type: 'put', bucket: Bucket.Meta, key: Buffer.from('term'), value: Buffer.from('x') }]);
    assert.equal(await s.hash(), h1);
    await s.flush(3n, [{ type: 'put', bucket: Bucket.Lease, key: Buffer.from('l'), value: Buffer.from('x') }]);
    assert.notEqual(await s.hash(), h1);
  });
});
