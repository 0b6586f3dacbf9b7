/** compact(): checks, what the index and the backend keep, pending changes, restart after an interrupted compaction. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Bucket, type Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { META_FINISHED_COMPACT, META_SCHEDULED_COMPACT, scheduledCompactOp } from '../../../server/mvcc/meta.js';
import { isTombstoneKey, mainOfKey, subOfKey } from '../../../server/mvcc/revision.js';
import { openMvccStore } from '../../../server/mvcc/store.js';
import { ALL, b, del, levelFixture, params, put, rangeShow, unwrap } from './helpers.js';

async function records(backend: Backend): Promise<string[]> {
  const out: string[] = [];
  for await (const [k] of backend.iterate(Bucket.Key)) out.push(`${mainOfKey(k)}.${subOfKey(k)}${isTombstoneKey(k) ? 't' : ''}`);
  return out;
}

async function metaRev(backend: Backend, key: Buffer): Promise<bigint | undefined> {
  const v = await backend.get(Bucket.Meta, key);
  return v === undefined ? undefined : mainOfKey(v);
}

void describe('compaction', () => {
  void it('rejects revisions at or below the last compaction and above the current one', async () => {
    const s = await openMvccStore(createMemoryBackend());
    put(s, 'a', '1');
    assert.deepEqual(s.compact(3n), { ok: false, error: { kind: 'FutureRev', currentRevision: 2n } });
    await unwrap(s.compact(2n)).done;
    assert.equal(s.compactRevision, 2n);
    assert.deepEqual(s.compact(2n), { ok: false, error: { kind: 'Compacted', compactRevision: 2n } });
    assert.deepEqual(s.compact(1n), { ok: false, error: { kind: 'Compacted', compactRevision: 2n } });
  });

  void it('keeps the newest revision ≤ rev of each key unless it is a tombstone', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    put(s, 'a', '1'); // 2
    put(s, 'a', '2'); // 3
    put(s, 'b', '1'); // 4
    del(s, 'b'); // 5
    put(s, 'c', '1'); // 6
    del(s, 'c'); // 7
    put(s, 'c', '2'); // 8
    put(s, 'a', '3'); // 9
    await s.flush(1n);
    assert.deepEqual(await records(backend), ['2.0', '3.0', '4.0', '5.0t', '6.0', '7.0t', '8.0', '9.0']);
    await unwrap(s.compact(7n)).done;
    assert.deepEqual(await records(backend), ['3.0', '8.0', '9.0']);
    assert.equal(await metaRev(backend, META_FINISHED_COMPACT), 7n);
    assert.equal(await metaRev(backend, META_SCHEDULED_COMPACT), 7n);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 7n })), ['a=2@2/3/2']);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 8n })), ['a=2@2/3/2', 'c=2@8/8/1']);
    assert.deepEqual(await rangeShow(s, params(ALL)), ['a=3@2/9/3', 'c=2@8/8/1']);
    await unwrap(s.compact(9n)).done;
    assert.deepEqual(await records(backend), ['8.0', '9.0']);
  });

  void it('deletes the same records from LevelDB (keys read in bulk behind their bucket prefix), across delete batches and subs of one transaction', async () => {
    const level = await levelFixture();
    try {
      const backend = level.backend();
      const s = await openMvccStore(backend);
      put(s, 'a', '1'); // 2
      del(s, 'a'); // 3
      const txn = s.beginWrite(); // 4: x at sub 0, y at sub 1
      txn.put(b('x'), b('1'), 0n);
      txn.put(b('y'), b('1'), 0n);
      txn.end();
      put(s, 'x', '2'); // 5
      for (let i = 0; i < 1500; i++) put(s, 'k', String(i)); // 6 … 1505
      await s.flush(1n);
      await unwrap(s.compact(1504n)).done;
      assert.deepEqual(await records(backend), ['4.1', '5.0', '1504.0', '1505.0']);
      assert.equal(await metaRev(backend, META_FINISHED_COMPACT), 1504n);
      assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 1504n })), ['k=1498@6/1504/1499', 'x=2@4/5/2', 'y=1@4/4/1']);
    } finally {
      await level.dispose();
    }
  });

  void it('drops useless changes that were not flushed yet', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    put(s, 'a', '1'); // 2
    put(s, 'a', '2'); // 3
    del(s, 'a'); // 4
    put(s, 'b', '1'); // 5
    const done = unwrap(s.compact(5n)).done;
    await s.flush(1n);
    await done;
    assert.deepEqual(await records(backend), ['5.0']);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 5n })), ['b=1@5/5/1']);
  });

  void it('compactions run one after another and the latest schedule wins', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    for (let i = 0; i < 10; i++) put(s, 'k', String(i)); // 2..11
    await s.flush(1n);
    const first = unwrap(s.compact(4n)).done;
    const second = unwrap(s.compact(8n)).done;
    await Promise.all([first, second, s.flush(2n)]);
    assert.deepEqual(await records(backend), ['8.0', '9.0', '10.0', '11.0']);
    assert.equal(await metaRev(backend, META_FINISHED_COMPACT), 8n);
    assert.equal(await metaRev(backend, META_SCHEDULED_COMPACT), 8n);
  });

  void it('a restart finishes a compaction that was cut short', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    put(s, 'a', '1'); // 2
    put(s, 'a', '2'); // 3
    del(s, 'a'); // 4
    put(s, 'b', '1'); // 5
    put(s, 'b', '2'); // 6
    await s.flush(7n);
    // As if compact(5) had recorded its schedule and then the process died.
    await backend.write([scheduledCompactOp(5n)]);
    const reopened = await openMvccStore(backend);
    assert.equal(reopened.compactRevision, 5n);
    assert.equal(reopened.currentRevision, 6n);
    assert.equal(reopened.consistentIndex, 7n);
    assert.deepEqual(await records(backend), ['5.0', '6.0']);
    assert.equal(await metaRev(backend, META_FINISHED_COMPACT), 5n);
    assert.deepEqual(await reopened.range(params({ ...ALL, revision: 4n })), { ok: false, error: { kind: 'Compacted', compactRevision: 5n } });
    assert.deepEqual(await rangeShow(reopened, params({ ...ALL, revision: 5n })), ['b=1@5/5/1']);
  });

  void it('the revision survives a restart after compacting away the newest tombstone', async () => {
    const backend = createMemoryBackend();
    const s = await openMvccStore(backend);
    put(s, 'a', '1'); // 2
    del(s, 'a'); // 3
    await s.flush(1n);
    await unwrap(s.compact(3n)).done;
    assert.deepEqual(await records(backend), []);
    const reopened = await openMvccStore(backend);
    assert.equal(reopened.currentRevision, 3n);
    assert.equal(reopened.compactRevision, 3n);
    assert.equal(put(reopened, 'a', 'x'), 4n);
    assert.deepEqual(await rangeShow(reopened, params({ key: b('a') })), ['a=x@4/4/1']);
  });
});
