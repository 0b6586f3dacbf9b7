/**
 * The index checkpoint (mvcc/index-checkpoint.ts): a store reopened from the checkpoint it
 * wrote is the store reopened by a scan — reads at every revision, history, hashes, counters,
 * leases and the record ledger — on the memory and level backends; a checkpoint that does
 * not describe the backend (written before a later flush, records removed behind it, a byte
 * flipped, cut short) is not used, the backend is scanned and the outcome says why; and a
 * store with changes unflushed refuses to write one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import { revisionKeyOf } from '../../../server/mvcc/revision.js';
import { Bucket, type Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { ALL, b, del, levelFixture, params, put, rangeShow, showEvent, unwrap } from './helpers.js';

async function observe(s: MvccStoreImpl): Promise<string[]> {
  const out = [`rev=${s.currentRevision} compact=${s.compactRevision} ci=${s.consistentIndex} keys=${s.keyCount}`];
  const from = s.compactRevision > 0n ? s.compactRevision : 1n;
  for (let rev = from; rev <= s.currentRevision; rev++) out.push(`@${rev}: ${(await rangeShow(s, params({ ...ALL, revision: rev }))).join(' ')}`);
  out.push(...unwrap(await s.history(from, s.currentRevision, ALL.key, ALL.rangeEnd)).map(showEvent));
  out.push(`hashkv=${JSON.stringify(unwrap(await s.hashKV(0n)).hash)} hash=${await s.hash()}`);
  const leased: string[] = [];
  s.forEachLeasedKey((key, lease) => leased.push(`${key.toString()}:${lease}`));
  out.push(`leased ${leased.join(' ')}`);
  const pinned = await s.pinSnapshot();
  const r = pinned.records;
  out.push(`ledger ${Array.from({ length: r.length }, (_, i) => `${r.main[i]}.${r.sub[i]}${r.tombstone[i] ? 't' : ''}:${r.valueLength[i]}`).join(' ')}`);
  await pinned.view.close();
  return out;
}

/** Puts, deletes, leases, a multi-key transaction, a compaction, many keys with several generations. */
async function writeSome(s: MvccStoreImpl): Promise<void> {
  put(s, 'a', '1');
  put(s, 'b', '1', 3n);
  del(s, 'a');
  put(s, 'a', '2');
  await s.flush(10n);
  const txn = s.beginWrite();
  txn.put(b('c'), b('1'), 0n);
  txn.deleteRange(b('b'), b('c'));
  txn.put(b('b'), b('again'), 7n);
  txn.end();
  put(s, 'a', '3');
  await unwrap(s.compact(4n)).done;
  for (let i = 0; i < 300; i++) {
    put(s, `k/${i % 97}`, `v${i}`, BigInt(i % 5));
    if (i % 7 === 0) del(s, `k/${i % 97}`);
  }
  put(s, '\u00ff\u0000bin', 'x');
  await s.flush(11n);
}

async function written(backend: Backend): Promise<{ store: MvccStoreImpl; checkpoint: Buffer; expected: string[] }> {
  const store = await openMvccStore(backend);
  await writeSome(store);
  await store.settle();
  return { store, checkpoint: store.checkpoint(), expected: await observe(store) };
}

void describe('index checkpoint', () => {
  void it('memory backend: reopened from the checkpoint = reopened by a scan', async () => {
    const backend = createMemoryBackend();
    const { store, checkpoint, expected } = await written(backend);
    const fromCheckpoint = await openMvccStore(backend.copy(), undefined, checkpoint);
    assert.deepEqual(fromCheckpoint.recovered, { from: 'checkpoint' });
    assert.deepEqual(await observe(fromCheckpoint), expected);
    const scanned = await openMvccStore(backend.copy());
    assert.deepEqual(scanned.recovered, { from: 'scan' });
    assert.deepEqual(await observe(scanned), expected);
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
      assert.deepEqual(await observe(again), expected);
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
    assert.deepEqual(await observe(again), await observe(s));
  });

  void it('a checkpoint written before a later flush is not used', async () => {
    const backend = createMemoryBackend();
    const { store, checkpoint } = await written(backend);
    put(store, 'later', '1');
    await store.flush(12n);
    const again = await openMvccStore(backend.copy(), undefined, checkpoint);
    assert.deepEqual(again.recovered, { from: 'scan', checkpointIgnored: 'the backend changed after it was written' });
    assert.deepEqual(await observe(again), await observe(store));
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
      assert.deepEqual(await observe(again), expected);
    }
  });

  void it('a store with unflushed changes refuses to write one', async () => {
    const s = await openMvccStore(createMemoryBackend());
    put(s, 'a', '1');
    assert.throws(() => s.checkpoint(), /unflushed changes/);
    await s.flush(1n);
    assert.ok(s.checkpoint().length > 0);
  });
});
