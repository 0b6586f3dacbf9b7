/** Write transactions: own-write visibility, isolation until end, sub revisions, events. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL, b, freshStore, params, put, rangeShow, show, showEvent, unwrap } from './helpers.js';

void describe('write transactions', () => {
  void it('see their own writes; others see nothing until end', async () => {
    const s = await freshStore();
    put(s, 'a', '1');
    const txn = s.beginWrite();
    assert.equal(txn.revision, 3n);
    txn.put(b('b'), b('2'), 0n);
    txn.deleteRange(b('a'), b(''));
    assert.equal(txn.get(b('a')), undefined);
    assert.equal(show(txn.get(b('b'))!), 'b=2@3/3/1');
    assert.deepEqual(unwrap(await txn.range(params(ALL))).kvs.map(show), ['b=2@3/3/1']);
    assert.deepEqual(await rangeShow(s, params(ALL)), ['a=1@2/2/1'], 'store reads do not see an open txn');
    assert.equal(s.currentRevision, 2n);
    // Reading the txn's own revision is allowed; the next one is in the future.
    assert.equal(unwrap(await txn.range(params({ ...ALL, revision: 3n }))).count, 1n);
    assert.equal(unwrap(await txn.range(params({ ...ALL, revision: 2n }))).kvs.map(show).join(), 'a=1@2/2/1');
    assert.deepEqual(await txn.range(params({ ...ALL, revision: 4n })), { ok: false, error: { kind: 'FutureRev', currentRevision: 2n } });
    const { revision, events } = txn.end();
    assert.equal(revision, 3n);
    assert.deepEqual(events.map(showEvent), ['PUT b=2@3/3/1', 'DELETE a@3 <- a=1@2/2/1']);
    assert.deepEqual(await rangeShow(s, params(ALL)), ['b=2@3/3/1']);
    assert.equal(s.currentRevision, 3n);
  });

  void it('a txn that changes nothing keeps the revision and reads the current one', async () => {
    const s = await freshStore();
    put(s, 'a', '1');
    const txn = s.beginWrite();
    assert.deepEqual(txn.deleteRange(b('x'), b('y')), []);
    assert.deepEqual(await txn.range(params({ ...ALL, revision: 3n })), { ok: false, error: { kind: 'FutureRev', currentRevision: 2n } });
    assert.deepEqual(txn.end(), { revision: 2n, events: [] });
    assert.equal(s.currentRevision, 2n);
  });

  void it('put returns the new record and the previous one; versions count inside the txn', async () => {
    const s = await freshStore();
    put(s, 'a', '1');
    const txn = s.beginWrite();
    const first = txn.put(b('a'), b('2'), 5n);
    assert.equal(show(first.kv), 'a=2@2/3/2+5');
    assert.equal(show(first.prev!), 'a=1@2/2/1');
    const second = txn.put(b('a'), b('3'), 0n);
    assert.equal(show(second.kv), 'a=3@2/3/3');
    assert.equal(show(second.prev!), 'a=2@2/3/2+5');
    const fresh = txn.put(b('n'), b('x'), 0n);
    assert.equal(fresh.prev, undefined);
    const { events } = txn.end();
    assert.deepEqual(events.map(showEvent), ['PUT a=2@2/3/2+5 <- a=1@2/2/1', 'PUT a=3@2/3/3 <- a=2@2/3/2+5', 'PUT n=x@3/3/1']);
    assert.deepEqual(await rangeShow(s, params(ALL)), ['a=3@2/3/3', 'n=x@3/3/1']);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 2n })), ['a=1@2/2/1']);
  });

  void it('deleteRange returns what it deleted in key order, including the txn own puts', async () => {
    const s = await freshStore();
    for (const k of ['c', 'a', 'e']) put(s, k, k);
    const txn = s.beginWrite();
    txn.put(b('b'), b('b'), 0n);
    txn.put(b('d'), b('d'), 0n);
    const gone = txn.deleteRange(b('a'), b('e'));
    assert.deepEqual(gone.map((kv) => kv.key.toString()), ['a', 'b', 'c', 'd']);
    assert.equal(txn.deleteRange(b('a'), b('e')).length, 0);
    const { revision, events } = txn.end();
    assert.equal(revision, 5n);
    assert.deepEqual(events.map((e) => `${e.type}:${e.kv!.key.toString()}:${e.kv!.modRevision}`), ['0:b:5', '0:d:5', '1:a:5', '1:b:5', '1:c:5', '1:d:5']);
    assert.deepEqual(await rangeShow(s, params(ALL)), ['e=e@4/4/1']);
    assert.equal(s.keyCount, 1);
    const h = unwrap(await s.history(5n, 5n, b('a'), Buffer.from([0])));
    assert.deepEqual(h.map(showEvent), events.map(showEvent));
  });

  void it('delete events carry only the key and the deletion revision', async () => {
    const s = await freshStore();
    put(s, 'a', '1', 9n);
    const txn = s.beginWrite();
    txn.deleteRange(b('a'), b(''));
    const [e] = txn.end().events;
    assert.deepEqual(
      { ...e!.kv!, key: e!.kv!.key.toString(), value: e!.kv!.value.length },
      { key: 'a', createRevision: 0n, modRevision: 3n, version: 0n, value: 0, lease: 0n },
    );
    assert.equal(show(e!.prevKv!), 'a=1@2/2/1+9');
  });

  void it('only one write txn at a time; an ended txn cannot be used', async () => {
    const s = await freshStore();
    const txn = s.beginWrite();
    assert.throws(() => s.beginWrite());
    txn.end();
    assert.throws(() => txn.put(b('a'), b('1'), 0n));
    assert.throws(() => txn.end());
    s.beginWrite().end();
  });

  void it('txn range applies limit, sort and count over the merged view', async () => {
    const s = await freshStore();
    for (const k of ['a', 'c', 'e']) put(s, k, k);
    const txn = s.beginWrite();
    txn.put(b('b'), b('z'), 0n);
    txn.put(b('f'), b('0'), 0n);
    txn.deleteRange(b('c'), b(''));
    const r = unwrap(await txn.range(params({ ...ALL, limit: 3n })));
    assert.deepEqual([r.kvs.map((kv) => kv.key.toString()).join(''), r.count, r.more], ['abe', 4n, true]);
    const sorted = unwrap(await txn.range(params({ ...ALL, sortTarget: 4, sortOrder: 2 })));
    assert.equal(sorted.kvs.map((kv) => kv.key.toString()).join(''), 'beaf');
    const single = unwrap(await txn.range(params({ key: b('b') })));
    assert.equal(single.kvs.map(show).join(), 'b=z@5/5/1');
    txn.end();
  });
});
