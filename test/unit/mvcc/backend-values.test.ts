/**
 * Values live in the backend: once flushed, records are read back from it (ranges through
 * getMany, write transactions through getSync); counts and keys-only reads at the current
 * revision are answered from the key index alone; recovery rebuilds create revision, version
 * and lease from the records without decoding values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeyValue } from '../../../proto/gen/etcd/kv.js';
import type { Backend, Bucket } from '../../../server/storage/backend.js';
import { createMemoryBackend, type MemoryBackend } from '../../../server/storage/memory-backend.js';
import { openMvccStore } from '../../../server/mvcc/store.js';
import { decodeKeyValue, peekRecordMeta } from '../../../server/mvcc/kv-codec.js';
import { RecordCache } from '../../../server/mvcc/record-cache.js';
import { unreadRevision } from '../../../server/mvcc/unread-prev.js';
import { ALL, b, del, params, put, rangeShow, show, showEvent, unwrap } from './helpers.js';

/** A memory backend that counts the record reads made through it. */
function counting(inner: MemoryBackend): { backend: Backend; reads: () => number; reset: () => void } {
  let reads = 0;
  const backend: Backend = Object.create(inner) as Backend;
  backend.getSync = (bucket: Bucket, key: Buffer) => {
    reads++;
    return inner.getSync(bucket, key);
  };
  backend.getMany = (bucket: Bucket, keys: readonly Buffer[]) => {
    reads += keys.length;
    return inner.getMany(bucket, keys);
  };
  backend.get = (bucket: Bucket, key: Buffer) => {
    reads++;
    return inner.get(bucket, key);
  };
  return { backend, reads: () => reads, reset: () => (reads = 0) };
}

void describe('values in the backend', () => {
  void it('flushed records are read from the backend; counts and keys-only reads are not', async () => {
    const c = counting(createMemoryBackend());
    const store = await openMvccStore(c.backend, { recordCacheBytes: 0 });
    c.reset();
    put(store, 'a', 'one', 7n);
    put(store, 'b', 'two');
    // Unflushed: served from the unflushed map.
    assert.deepEqual(await rangeShow(store, params(ALL)), ['a=one@2/2/1+7', 'b=two@3/3/1']);
    assert.equal(c.reads(), 0);
    await store.flush(1n);
    await store.settle();
    assert.equal(store.hasUnflushed, false);
    assert.deepEqual(await rangeShow(store, params(ALL)), ['a=one@2/2/1+7', 'b=two@3/3/1']);
    assert.equal(c.reads(), 2);
    const keysOnly = unwrap(await store.range(params({ ...ALL, keysOnly: true })));
    assert.deepEqual(keysOnly.kvs.map(show), ['a=@2/2/1+7', 'b=@3/3/1']);
    assert.equal(unwrap(await store.range(params({ ...ALL, countOnly: true }))).count, 2n);
    assert.equal(c.reads(), 2);
    // Sorting by value needs the values even when keys_only.
    const byValue = unwrap(await store.range(params({ ...ALL, keysOnly: true, sortTarget: 4, sortOrder: 2 })));
    assert.deepEqual(byValue.kvs.map((kv) => kv.key.toString()), ['b', 'a']);
    assert.equal(c.reads(), 4);
  });

  /** A store without the hot-record cache holding a=one (lease 7), flushed; reads counted from here. */
  async function flushedA(): Promise<{ c: ReturnType<typeof counting>; store: Awaited<ReturnType<typeof openMvccStore>> }> {
    const c = counting(createMemoryBackend());
    const store = await openMvccStore(c.backend, { recordCacheBytes: 0 });
    put(store, 'a', 'one', 7n);
    await store.flush(1n);
    await store.settle();
    c.reset();
    return { c, store };
  }

  void it('a write transaction reads a flushed record synchronously when asked (get)', async () => {
    const { c, store } = await flushedA();
    const txn = store.beginWrite();
    assert.equal(show(txn.get(b('a'))!), 'a=one@2/2/1+7');
    txn.end();
    assert.equal(c.reads(), 1);
  });

  void it('a put of a flushed key leaves the previous value unread; readPrev and history read it by revision', async () => {
    const { c, store } = await flushedA();
    const txn = store.beginWrite();
    const { kv, prev } = txn.put(b('a'), b('two'), 0n);
    // Create revision, version and lease come from the index: no backend read.
    assert.equal(show(prev!), 'a=@2/2/1+7');
    assert.equal(show(kv), 'a=two@2/3/2');
    const { events } = txn.end();
    assert.equal(c.reads(), 0);
    assert.notEqual(unreadRevision(events[0]!.prevKv), undefined);
    const read = store.readPrev(events);
    assert.equal(show(read[0]!.prevKv!), 'a=one@2/2/1+7');
    assert.equal(unreadRevision(read[0]!.prevKv), undefined);
    assert.equal(c.reads(), 1);
    assert.equal(show(events[0]!.prevKv!), 'a=@2/2/1+7', 'the given events are not changed');
    assert.equal(store.readPrev(read), read, 'nothing unread: the same array');
    // History over the unflushed put reads it too (scan path: every key).
    const history = unwrap(await store.history(3n, 3n, Buffer.from([0]), Buffer.from([0])));
    assert.deepEqual(history.map(showEvent), ['PUT a=two@2/3/2 <- a=one@2/2/1+7']);
  });

  void it('an unread previous record compacted away before it is read leaves prevKv out', async () => {
    const store = await openMvccStore(createMemoryBackend(), { recordCacheBytes: 0 });
    put(store, 'a', 'one');
    await store.flush(1n);
    await store.settle();
    const txn = store.beginWrite();
    txn.put(b('a'), b('two'), 0n);
    const { events } = txn.end();
    await unwrap(store.compact(3n)).done;
    await store.flush(2n);
    await store.settle();
    assert.equal(store.readPrev(events)[0]!.prevKv, undefined);
  });

  void it('a put whose previous record is in memory carries it whole', async () => {
    const store = await openMvccStore(createMemoryBackend(), { recordCacheBytes: 0 });
    put(store, 'a', 'one');
    const txn = store.beginWrite();
    // Unflushed: the record is at hand.
    assert.equal(show(txn.put(b('a'), b('two'), 0n).prev!), 'a=one@2/2/1');
    const { events } = txn.end();
    assert.equal(unreadRevision(events[0]!.prevKv), undefined);
  });

  void it('recovery rebuilds create revision, version and lease from the records', async () => {
    const backend = createMemoryBackend();
    const store = await openMvccStore(backend);
    put(store, 'a', 'one', -5n);
    put(store, 'a', 'two', -5n);
    put(store, 'b', 'x'.repeat(70000), 0x7fffffffffffffffn);
    await store.flush(3n);
    await store.settle();
    const again = await openMvccStore(backend.copy());
    assert.equal(again.keyCount, 2);
    const keysOnly = unwrap(await again.range(params({ ...ALL, keysOnly: true })));
    assert.deepEqual(keysOnly.kvs.map(show), ['a=@2/3/2+-5', `b=@4/4/1+${0x7fffffffffffffffn}`]);
    const txn = again.beginWrite();
    assert.equal(show(txn.put(b('a'), b('three'), 0n).kv), 'a=three@2/5/3');
    txn.end();
  });

  void it('peekRecordMeta reads the fields a marshalled record holds, whatever their order', () => {
    const kv = { key: b('k'), createRevision: 3n, modRevision: 9n, version: 4n, value: Buffer.alloc(300, 1), lease: -2n };
    const m = peekRecordMeta(Buffer.from(KeyValue.encode(kv).finish()));
    assert.deepEqual([m.key.toString(), m.createRevision, m.version, m.lease], ['k', 3, 4, -2n]);
    // Fields out of order (lease first) and an unknown field 9 (varint) are tolerated.
    const odd = Buffer.from([0x30, 0x05, 0x48, 0x01, 0x0a, 0x01, 0x6b, 0x10, 0x02]);
    const o = peekRecordMeta(odd);
    assert.deepEqual([o.key.toString(), o.createRevision, o.version, o.lease], ['k', 2, 0, 5n]);
    assert.throws(() => peekRecordMeta(Buffer.from([0x0a, 0x05, 0x6b])));
  });
});

void describe('hot-record cache', () => {
  void it('serves the newest record of recently written or read keys without the backend', async () => {
    const c = counting(createMemoryBackend());
    const store = await openMvccStore(c.backend, { recordCacheBytes: 1024 * 1024 });
    put(store, 'a', 'one');
    put(store, 'b', 'two');
    await store.flush(1n);
    await store.settle();
    c.reset();
    assert.deepEqual(await rangeShow(store, params(ALL)), ['a=one@2/2/1', 'b=two@3/3/1']);
    const txn = store.beginWrite();
    assert.equal(show(txn.put(b('a'), b('uno'), 0n).prev!), 'a=one@2/2/1');
    txn.end();
    assert.equal(c.reads(), 0);
    del(store, 'b');
    put(store, 'b', 'again');
    await store.flush(2n);
    await store.settle();
    assert.deepEqual(await rangeShow(store, params(ALL)), ['a=uno@2/4/2', 'b=again@6/6/1']);
    assert.equal(c.reads(), 0);
  });

  void it('drops the older generation, keeps what was used, skips big records, never serves a stale one', () => {
    const kv = (key: string, mod: bigint, size: number): KeyValue => ({ key: b(key), createRevision: 1n, modRevision: mod, version: 1n, value: Buffer.alloc(size), lease: 0n });
    const cache = new RecordCache(4000); // entries of 300-byte values count 461 bytes: a generation holds 4
    cache.set('big', kv('big', 4n, 600));
    assert.equal(cache.get('big', 4), undefined, 'over an eighth of the budget');
    cache.set('a', kv('a', 2n, 300));
    cache.set('b', kv('b', 3n, 300));
    assert.equal(cache.get('b', 9), undefined, 'stale: the index names another revision');
    assert.equal(cache.get('a', 2)?.modRevision, 2n);
    for (let i = 0; i < 3; i++) cache.set(`k${i}`, kv(`k${i}`, BigInt(10 + i), 300)); // young flips to old
    assert.equal(cache.get('a', 2)?.modRevision, 2n, 'a hit in the old generation moves it to the young one');
    for (let i = 3; i < 8; i++) cache.set(`k${i}`, kv(`k${i}`, BigInt(10 + i), 300)); // flips again: the first old one is dropped
    assert.equal(cache.get('b', 3), undefined);
    assert.equal(cache.get('k7', 17)?.modRevision, 17n);
    assert.ok(cache.size <= 4000);
    cache.delete('k7');
    assert.equal(cache.get('k7', 17), undefined);
  });
});

void describe('record decoding', () => {
  void it('decodes what the generic decoder decodes, with views into the record', () => {
    const cases = [
      { key: b('k'), createRevision: 3n, modRevision: 9n, version: 4n, value: Buffer.alloc(300, 1), lease: 0n },
      { key: b('k'), createRevision: 3n, modRevision: 9n, version: 4n, value: b('v'), lease: 0x1234567n },
      { key: b('k'), createRevision: 1n, modRevision: 1n, version: 1n, value: b(''), lease: -2n },
      { key: b('k'), createRevision: 2n ** 60n, modRevision: 2n ** 60n, version: 1n, value: b('v'), lease: 2n ** 62n },
      { key: b(''), createRevision: 0n, modRevision: 0n, version: 0n, value: b(''), lease: 0n },
    ];
    for (const kv of cases) {
      const rec = Buffer.from(KeyValue.encode(kv).finish());
      assert.deepEqual(decodeKeyValue(rec), KeyValue.decode(rec));
    }
  });
});
