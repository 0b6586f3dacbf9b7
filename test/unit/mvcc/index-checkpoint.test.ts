/**
 * The index checkpoint (mvcc/index-checkpoint.ts): a store reopened from the checkpoint it
 * wrote is the store reopened by a scan — reads at every revision, history, hashes, counters,
 * leases and the record ledger — on the memory and level backends; a checkpoint that does
 * not describe the backend (written before a later flush, records removed behind it, a byte
 * flipped, cut short) is not used, the backend is scanned and the outcome says why; and a
 * store with changes unflushed refuses to write one.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import { revisionKeyOf } from '../../../server/mvcc/revision.js';
import { Bucket, type Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { levelFixture, observeStore, put, writeHistory } from './helpers.js';

async function written(backend: Backend): Promise<{ store: MvccStoreImpl; checkpoint: Buffer; expected: string[] }> {
  const store = await openMvccStore(backend);
  await writeHistory(store);
  await store.settle();
  return { store, checkpoint: store.checkpoint(), expected: await observeStore(store) };
}

void describe('index checkpoint', () => {
  void it('memory backend: reopened from the checkpoint = reopened by a scan', async () => {
    const backend = createMemoryBackend();
    const { store, checkpoint, expected } = await written(backend);
    const fromCheckpoint = await openMvccStore(backend.copy(), undefined, checkpoint);
    assert.deepEqual(fromCheckpoint.recovered, { from: 'checkpoint' });
    assert.deepEqual(await observeStore(fromCheckpoint), expected);
    const scanned = await openMvccStore(backend.copy());
    assert.deepEqual(scanned.recovered, { from: 'scan' });
    assert.deepEqual(await observeStore(scanned), expected);
    // Both go on at the same revision.
    assert.equal(put(fromCheckpoint, 'next', '1'), store.currentRevision + 1n);
    assert.equal(put(scanned, 'next', '1'), store.currentRevision + 1n);
  });

  void it('level backend: reopened from the checkpoint = before', async () => {
    const fx = await levelFixture();
    try {
      const { checkpoint, expected } = await written(fx.backend());
      const again = await openMvccStore(await fx.reopen(), undefined, checkpoint);
      assert.deepEqual(again.recovered, { from: 'checkpoint' });
      assert.deepEqual(await observeStore(again), expected);
      await again.settle();
    } finally {
      await fx.dispose();
    }
  });

  void it('an empty store round-trips', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    const again = await openMvccStore(backend.copy(), undefined, s.checkpoint());
    assert.deepEqual(again.recovered, { from: 'checkpoint' });
    assert.deepEqual(await observeStore(again), await observeStore(s));
  });

  void it('a checkpoint written before a later flush is not used', async () => {
    const backend = createMemoryBackend();
    const { store, checkpoint } = await written(backend);
    put(store, 'later', '1');
    await store.flush(12n);
    const again = await openMvccStore(backend.copy(), undefined, checkpoint);
    assert.deepEqual(again.recovered, { from: 'scan', checkpointIgnored: 'the backend changed after it was written' });
    assert.deepEqual(await observeStore(again), await observeStore(store));
  });

  void it('a checkpoint whose last record the backend no longer holds is not used', async () => {
    const backend = createMemoryBackend();
    const { store, checkpoint } = await written(backend);
    const pinned = await store.pinSnapshot();
    const r = pinned.records;
    await pinned.view.close();
    const last = r.length - 1;
    await backend.write([{ type: 'del', bucket: Bucket.Key, key: revisionKeyOf(r.main[last]!, r.sub[last]!, r.tombstone[last] === 1) }]);
    const again = await openMvccStore(backend.copy(), undefined, checkpoint);
    assert.deepEqual(again.recovered, { from: 'scan', checkpointIgnored: 'its records are not the backend’s' });
  });

  void it('a flipped byte, a cut-short file or a foreign file is not used', async () => {
    const backend = createMemoryBackend();
    const { checkpoint, expected } = await written(backend);
    const flipped = Buffer.from(checkpoint);
    flipped[flipped.length >> 1]! ^= 0x01;
    const cases: [Buffer, RegExp][] = [
      [flipped, /^unreadable: checksum mismatch$/],
      [checkpoint.subarray(0, checkpoint.length - 100), /^unreadable: checksum mismatch$/],
      [Buffer.from('not a checkpoint at all, just some bytes of another file'), /^unreadable: not an index checkpoint$/],
    ];
    for (const [bytes, reason] of cases) {
      const again = await openMvccStore(backend.copy(), undefined, bytes);
      assert.equal(again.recovered.from, 'scan');
      assert.match((again.recovered as { checkpointIgnored: string }).checkpointIgnored, reason);
      assert.deepEqual(await observeStore(again), expected);
    }
  });

  void it('a checkpoint whose checksum holds but whose ledger is out of order is not used', async () => {
    const backend = createMemoryBackend();
    const { checkpoint, expected } = await written(backend);
    // Swap the main revisions of ledger records 1 and 2 (the first and last stay), then seal it again.
    const bad = Buffer.from(checkpoint);
    const at = (i: number): number => 48 + 8 * i;
    const one = Buffer.from(bad.subarray(at(1), at(2)));
    bad.copy(bad, at(1), at(2), at(3));
    one.copy(bad, at(2));
    createHash('sha256').update(bad.subarray(0, bad.length - 32)).digest().copy(bad, bad.length - 32);
    const again = await openMvccStore(backend.copy(), undefined, bad);
    assert.deepEqual(again.recovered, { from: 'scan', checkpointIgnored: 'unreadable: mvcc: record ledger out of revision order' });
    assert.deepEqual(await observeStore(again), expected);
  });

  void it('a store with unflushed changes refuses to write one', async () => {
    const s = await openMvccStore(createMemoryBackend());
    put(s, 'a', '1');
    assert.throws(() => s.checkpoint(), /unflushed changes/);
    await s.flush(1n);
    assert.ok(s.checkpoint().length > 0);
  });
});
