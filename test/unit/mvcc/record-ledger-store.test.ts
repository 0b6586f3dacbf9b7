/**
 * The store's record ledger equals its backend's `key` bucket: `pinSnapshot()` hands out a view
 * and frozen records that describe exactly the same records (revision, tombstone mark, value
 * length), over the memory and the LevelDB backend, after flushes, compactions (also while one
 * runs, with flushes and pins interleaved), recovery, an interrupted compaction and a reload.
 * slow-backend.ts makes the interleavings that a missing io-queue task would break happen for sure.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Bucket, type Backend, type ReadView } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { scheduledCompactOp } from '../../../server/mvcc/meta.js';
import type { RecordSizes } from '../../../server/mvcc/record-ledger.js';
import { encodeRevisionKey, isTombstoneKeyAt, mainOfKeyAt, REVISION_KEY_LENGTH, subOfKeyAt } from '../../../server/mvcc/revision.js';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import { encodeKeyValue } from '../../../server/mvcc/kv-codec.js';
import { b, del, levelFixture, put, unwrap } from './helpers.js';
import { slowBackend } from './slow-backend.js';

/** "main.sub[t]:valueLength" for every record of the view's key bucket. */
async function bucketRecords(view: ReadView): Promise<string[]> {
  const out: string[] = [];
  for await (const { entries, keyStart } of view.batches(Bucket.Key)) {
    for (const [key, value] of entries) {
      const tombstone = isTombstoneKeyAt(key, keyStart);
      assert.equal(tombstone, key.length - keyStart === REVISION_KEY_LENGTH + 1);
      out.push(`${mainOfKeyAt(key, keyStart)}.${subOfKeyAt(key, keyStart)}${tombstone ? 't' : ''}:${value?.length ?? 0}`);
    }
  }
  return out;
}

function ledgerRecords(r: RecordSizes): string[] {
  const out: string[] = [];
  for (let i = 0; i < r.length; i++) out.push(`${r.main[i]}.${r.sub[i]}${r.tombstone[i] === 1 ? 't' : ''}:${r.valueLength[i]}`);
  return out;
}

/** Pins, checks that the ledger equals the pinned bucket, returns the records. */
async function pinnedMatch(s: MvccStoreImpl): Promise<string[]> {
  const { view, records } = await s.pinSnapshot();
  try {
    const expected = await bucketRecords(view);
    assert.deepEqual(ledgerRecords(records), expected);
    return expected;
  } finally {
    await view.close();
  }
}

/** Puts, deletes (tombstones), a multi-op transaction (subs 0..2), flushes and a compaction; checks after each stage. */
async function writeAndCheck(s: MvccStoreImpl): Promise<string[]> {
  put(s, 'a', '1'); // 2
  put(s, 'b', 'two'); // 3
  del(s, 'a'); // 4
  const txn = s.beginWrite(); // 5
  txn.put(b('c'), b('three'), 0n);
  txn.deleteRange(b('b'), b('c'));
  txn.put(b('b'), b('again and again'), 0n);
  txn.end();
  await s.flush(10n);
  const flushed = await pinnedMatch(s);
  assert.ok(['4.0t:', '5.1t:', '5.2:'].every((p) => flushed.some((r) => r.startsWith(p))), flushed.join(' '));
  put(s, 'd', 'not flushed'); // 6
  assert.deepEqual(await pinnedMatch(s), flushed);
  await s.flush(11n);
  put(s, 'a', 'x'); // 7
  await unwrap(s.compact(5n)).done;
  const compacted = await pinnedMatch(s);
  assert.ok(compacted.length < flushed.length + 1, `compaction removed records: ${compacted.join(' ')}`);
  assert.ok(!compacted.some((r) => r.startsWith('2.') || r.startsWith('4.')));
  await s.flush(12n);
  del(s, 'c'); // 8
  await s.flush(13n);
  return pinnedMatch(s);
}

async function reopenAndCheck(s: MvccStoreImpl, reopen: () => Promise<Backend>, before: string[]): Promise<MvccStoreImpl> {
  await s.settle();
  const again = await openMvccStore(await reopen());
  assert.deepEqual(await pinnedMatch(again), before);
  return again;
}

async function interruptedCompaction(s: MvccStoreImpl, backend: () => Backend, reopen: () => Promise<Backend>): Promise<void> {
  for (let i = 0; i < 5; i++) put(s, 'e', `v${i}`);
  await s.flush(20n);
  await s.settle();
  const rev = s.currentRevision - 1n;
  await backend().write([scheduledCompactOp(rev)]);
  const again = await openMvccStore(await reopen());
  assert.equal(again.compactRevision, rev);
  const records = await pinnedMatch(again);
  assert.ok(!records.some((r) => r.startsWith(`${rev - 1n}.`)));
}

/** Many delete batches; a put, a flush and a pin per round until the compaction is done. */
async function pinsDuringCompaction(s: MvccStoreImpl): Promise<void> {
  for (let i = 0; i < 6000; i++) put(s, `k${i % 3}`, 'v'.repeat(i % 50));
  await s.flush(1n);
  const done = unwrap(s.compact(s.currentRevision - 1n)).done;
  let finished = false;
  void done.then(() => (finished = true));
  let round = 0;
  for (; !finished || round < 3; round++) {
    put(s, `n${round}`, 'x');
    const flushed = s.flush(BigInt(round + 2));
    await pinnedMatch(s);
    await flushed;
  }
  await done;
  const last = await pinnedMatch(s);
  assert.ok(last.length < 100 + round, `compaction left ${last.length} records`);
  await s.settle();
}

void describe('record ledger of the store', () => {
  void it('equals the key bucket over the memory backend, also after recovery and an interrupted compaction', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    const before = await writeAndCheck(s);
    const again = await reopenAndCheck(s, () => Promise.resolve(backend), before);
    await interruptedCompaction(again, () => backend, () => Promise.resolve(backend));
  });

  void it('equals the key bucket over LevelDB (keys behind a bucket prefix), also after reopening', async () => {
    const level = await levelFixture();
    try {
      const s = await openMvccStore(level.backend());
      const before = await writeAndCheck(s);
      const again = await reopenAndCheck(s, level.reopen, before);
      await interruptedCompaction(again, level.backend, level.reopen);
    } finally {
      await level.dispose();
    }
  });

  void it('matches every pin taken while a compaction deletes in batches and flushes go on (slow acknowledgements)', async () => {
    await pinsDuringCompaction(await openMvccStore(slowBackend(createMemoryBackend())));
  });

  void it('matches every pin taken while a compaction deletes in batches and flushes go on (LevelDB)', async () => {
    const level = await levelFixture();
    try {
      await pinsDuringCompaction(await openMvccStore(level.backend()));
    } finally {
      await level.dispose();
    }
  });

  void it('is rebuilt by reload() after the backend contents were replaced behind the store', async () => {
    const backend = slowBackend(createMemoryBackend());
    const s = await openMvccStore(backend);
    put(s, 'a', '1'); // 2
    del(s, 'a'); // 3
    await s.flush(1n);
    const before = await pinnedMatch(s);
    const kv = { key: b('z'), value: b('from an image'), createRevision: 9n, modRevision: 9n, version: 1n, lease: 0n };
    await backend.write([
      { type: 'del', bucket: Bucket.Key, key: encodeRevisionKey(3n, 0, true) },
      { type: 'put', bucket: Bucket.Key, key: encodeRevisionKey(9n, 0, false), value: encodeKeyValue(kv) },
    ]);
    const reloaded = s.reload();
    await new Promise(setImmediate);
    const during = s.pinSnapshot(); // queued while the reload runs: pins the reloaded state
    await reloaded;
    const expected = [before[0]!, `9.0:${encodeKeyValue(kv).length}`];
    assert.deepEqual(await pinnedMatch(s), expected);
    const { view, records } = await during;
    try {
      assert.deepEqual(ledgerRecords(records), expected);
      assert.deepEqual(await bucketRecords(view), expected);
    } finally {
      await view.close();
    }
  });
});

void describe('store size (MvccStore.size, shrinkToFit)', () => {
  void it('grows with each flush, keeps its allocation through a compaction, shrinks to what is in use at shrinkToFit', async () => {
    const s = await openMvccStore(createMemoryBackend());
    const empty = s.size;
    assert.equal(empty.allocated, empty.inUse, 'a fresh store: its fixed part only');
    const sizes: number[] = [];
    for (let i = 0; i < 10; i++) {
      put(s, `k${i % 2}`, 'v'.repeat(1000));
      await s.flush(BigInt(i + 1));
      sizes.push(s.size.allocated);
    }
    for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i]! > sizes[i - 1]!, `sizes grow: ${sizes.join(' ')}`);
    const full = s.size;
    assert.equal(full.inUse, full.allocated);
    // Not awaited: shrinkToFit waits for the compaction's backend pass itself.
    unwrap(s.compact(s.currentRevision));
    await s.shrinkToFit();
    const after = s.size;
    assert.deepEqual(after, { allocated: after.inUse, inUse: after.inUse });
    assert.ok(after.inUse - empty.inUse < (full.inUse - empty.inUse) / 4, `two keys of ten records remain: ${after.inUse} of ${full.inUse}`);
  });

  void it('a compaction alone frees space in use but not the allocation', async () => {
    const s = await openMvccStore(createMemoryBackend());
    for (let i = 0; i < 4; i++) put(s, 'k', 'v'.repeat(500));
    await s.flush(4n);
    const full = s.size;
    await unwrap(s.compact(s.currentRevision)).done;
    assert.equal(s.size.allocated, full.allocated);
    assert.ok(s.size.inUse < full.inUse);
  });
});
