/** history(): events by revision and sub revision with prevKv, across flushed and unflushed changes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { openMvccStore, type MvccStoreImpl, type StoreOptions } from '../../../server/mvcc/store.js';
import { ALL, b, del, put, showEvent, unwrap } from './helpers.js';

function historySuite(name: string, options: StoreOptions): void {
  const freshStore = (): Promise<MvccStoreImpl> => openMvccStore(createMemoryBackend(), options);
  void describe(`history ${name}`, () => {
    void it('returns events in revision order with prevKv, flushed or not', async () => {
      const s = await freshStore();
      put(s, 'a', '1'); // 2
      put(s, 'b', '1'); // 3
      await s.flush(1n);
      put(s, 'a', '2'); // 4
      del(s, 'a'); // 5
      await s.flush(2n);
      put(s, 'a', '3'); // 6
      const txn = s.beginWrite(); // 7
      txn.put(b('c'), b('1'), 0n);
      txn.put(b('b'), b('2'), 0n);
      txn.end();
      const all = unwrap(await s.history(2n, 100n, ALL.key, ALL.rangeEnd)).map(showEvent);
      assert.deepEqual(all, [
        'PUT a=1@2/2/1',
        'PUT b=1@3/3/1',
        'PUT a=2@2/4/2 <- a=1@2/2/1',
        'DELETE a@5 <- a=2@2/4/2',
        'PUT a=3@6/6/1',
        'PUT c=1@7/7/1',
        'PUT b=2@3/7/2 <- b=1@3/3/1',
      ]);
      assert.deepEqual(unwrap(await s.history(4n, 6n, b('a'), b(''))).map(showEvent), all.slice(2, 5));
      assert.deepEqual(unwrap(await s.history(5n, 7n, b('b'), b('c'))).map(showEvent), ['PUT b=2@3/7/2 <- b=1@3/3/1']);
      // prevKv older than the window is read from the backend.
      assert.deepEqual(unwrap(await s.history(7n, 7n, b('b'), b(''))).map(showEvent), ['PUT b=2@3/7/2 <- b=1@3/3/1']);
      assert.deepEqual(unwrap(await s.history(5n, 5n, b('a'), b(''))).map(showEvent), ['DELETE a@5 <- a=2@2/4/2']);
      await s.flush(3n);
      assert.deepEqual(unwrap(await s.history(2n, 100n, ALL.key, ALL.rangeEnd)).map(showEvent), all);
      assert.deepEqual(unwrap(await s.history(8n, 100n, ALL.key, ALL.rangeEnd)), []);
      assert.deepEqual(unwrap(await s.history(3n, 2n, ALL.key, ALL.rangeEnd)), []);
    });

    void it('fails below the compact revision and allows it exactly', async () => {
      const s = await freshStore();
      put(s, 'a', '1'); // 2
      put(s, 'a', '2'); // 3
      put(s, 'a', '3'); // 4
      await s.flush(1n);
      await unwrap(s.compact(3n)).done;
      assert.deepEqual(await s.history(2n, 4n, b('a'), b('')), { ok: false, error: { kind: 'Compacted', compactRevision: 3n } });
      assert.deepEqual(unwrap(await s.history(3n, 4n, b('a'), b(''))).map(showEvent), ['PUT a=2@2/3/2', 'PUT a=3@2/4/3 <- a=2@2/3/2']);
    });
  });
}

historySuite('through the index', {});
historySuite('by scanning the revision window', { historyIndexMaxKeys: 0 });
