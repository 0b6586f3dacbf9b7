/** Range semantics of the store (ETCD-FACTS §3.1–3.3): range_end rules, revisions, count/limit/more, filters, sort. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SortOrder, SortTarget } from '../../../server/mvcc/types.js';
import { ALL, b, del, freshStore, params, put, rangeShow, unwrap } from './helpers.js';

void describe('range', () => {
  void it('a fresh store is at revision 1 and empty', async () => {
    const s = await freshStore();
    assert.equal(s.currentRevision, 1n);
    assert.equal(s.compactRevision, 0n);
    assert.equal(s.keyCount, 0);
    assert.deepEqual(unwrap(await s.range(params(ALL))), { kvs: [], count: 0n, more: false });
  });

  void it('put bumps the revision every time and keeps version/create/mod', async () => {
    const s = await freshStore();
    assert.equal(put(s, 'a', '1'), 2n);
    assert.equal(put(s, 'a', '1'), 3n);
    assert.equal(put(s, 'b', '2', 7n), 4n);
    assert.deepEqual(await rangeShow(s, params(ALL)), ['a=1@2/3/2', 'b=2@4/4/1+7']);
    assert.equal(del(s, 'a'), 5n);
    assert.equal(put(s, 'a', '3'), 6n);
    assert.deepEqual(await rangeShow(s, params({ key: b('a') })), ['a=3@6/6/1']);
    assert.equal(s.keyCount, 2);
  });

  void it('deleting nothing does not bump the revision', async () => {
    const s = await freshStore();
    put(s, 'a', '1');
    assert.equal(del(s, 'zz'), 2n);
    assert.equal(del(s, 'b', 'a'), 2n);
    assert.equal(s.currentRevision, 2n);
  });

  void it('follows the range_end rules', async () => {
    const s = await freshStore();
    for (const k of ['a', 'ab', 'b', 'c']) put(s, k, k);
    const keys = async (key: string | Buffer, end: string | Buffer): Promise<string[]> =>
      (await rangeShow(s, params({ key: typeof key === 'string' ? b(key) : key, rangeEnd: typeof end === 'string' ? b(end) : end }))).map((x) => x.split('=')[0]!);
    assert.deepEqual(await keys('a', ''), ['a']);
    assert.deepEqual(await keys('a', 'b'), ['a', 'ab']);
    assert.deepEqual(await keys('ab', Buffer.from([0])), ['ab', 'b', 'c']);
    assert.deepEqual(await keys(Buffer.from([0]), Buffer.from([0])), ['a', 'ab', 'b', 'c']);
    assert.deepEqual(await keys('b', 'a'), []);
    assert.deepEqual(await keys('b', 'b'), []);
    assert.deepEqual(await keys('zz', ''), []);
  });

  void it('counts before limit and filters; more when cut', async () => {
    const s = await freshStore();
    for (const k of ['a', 'b', 'c', 'd']) put(s, k, k);
    const r = unwrap(await s.range(params({ ...ALL, limit: 2n })));
    assert.equal(r.count, 4n);
    assert.equal(r.more, true);
    assert.deepEqual(r.kvs.map((kv) => kv.key.toString()), ['a', 'b']);
    const exact = unwrap(await s.range(params({ ...ALL, limit: 4n })));
    assert.equal(exact.more, false);
    assert.equal(exact.kvs.length, 4);
    const filtered = unwrap(await s.range(params({ ...ALL, minModRevision: 3n, maxModRevision: 4n })));
    assert.equal(filtered.count, 4n);
    assert.deepEqual(filtered.kvs.map((kv) => kv.key.toString()), ['b', 'c']);
    const filteredLimited = unwrap(await s.range(params({ ...ALL, minCreateRevision: 3n, limit: 1n })));
    assert.deepEqual([filteredLimited.kvs.map((kv) => kv.key.toString()), filteredLimited.more], [['b'], true]);
    const created = unwrap(await s.range(params({ ...ALL, maxCreateRevision: 2n })));
    assert.deepEqual(created.kvs.map((kv) => kv.key.toString()), ['a']);
  });

  void it('count_only and keys_only', async () => {
    const s = await freshStore();
    put(s, 'a', 'x');
    put(s, 'b', 'y');
    assert.deepEqual(unwrap(await s.range(params({ ...ALL, countOnly: true, limit: 1n }))), { kvs: [], count: 2n, more: false });
    const ko = unwrap(await s.range(params({ ...ALL, keysOnly: true })));
    assert.deepEqual(ko.kvs.map((kv) => [kv.key.toString(), kv.value.length, kv.version]), [['a', 0, 1n], ['b', 0, 1n]]);
    assert.deepEqual(await rangeShow(s, params({ key: b('a') })), ['a=x@2/2/1'], 'keys_only must not strip the stored value');
  });

  void it('sorts; a non-key target without order sorts ascending', async () => {
    const s = await freshStore();
    put(s, 'a', '3');
    put(s, 'b', '1');
    put(s, 'c', '2');
    put(s, 'b', '0');
    const keys = async (over: Parameters<typeof params>[0]): Promise<string> =>
      unwrap(await s.range(params(over))).kvs.map((kv) => kv.key.toString()).join('');
    assert.equal(await keys({ ...ALL, sortOrder: SortOrder.Descend }), 'cba');
    assert.equal(await keys({ ...ALL, sortOrder: SortOrder.Ascend }), 'abc');
    assert.equal(await keys({ ...ALL, sortTarget: SortTarget.Value }), 'bca');
    assert.equal(await keys({ ...ALL, sortTarget: SortTarget.Value, sortOrder: SortOrder.Descend }), 'acb');
    assert.equal(await keys({ ...ALL, sortTarget: SortTarget.Mod, sortOrder: SortOrder.Descend }), 'bca');
    assert.equal(await keys({ ...ALL, sortTarget: SortTarget.Create, sortOrder: SortOrder.Descend }), 'cba');
    assert.equal(await keys({ ...ALL, sortTarget: SortTarget.Version, sortOrder: SortOrder.Descend }), 'bac');
    assert.equal(await keys({ ...ALL, sortTarget: SortTarget.Value, sortOrder: SortOrder.Ascend, limit: 2n }), 'bc');
    // etcd quirk: order NONE fetches limit+1 keys in key order before sorting them.
    assert.equal(await keys({ ...ALL, sortTarget: SortTarget.Value, limit: 1n }), 'b');
    const r = unwrap(await s.range(params({ ...ALL, sortTarget: SortTarget.Value, limit: 1n })));
    assert.equal(r.more, true);
  });

  void it('reads past revisions; rejects future and compacted ones', async () => {
    const s = await freshStore();
    put(s, 'a', '1'); // 2
    put(s, 'a', '2'); // 3
    del(s, 'a'); // 4
    put(s, 'b', '1'); // 5
    await s.flush(1n);
    put(s, 'a', '3'); // 6 (not flushed)
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 2n })), ['a=1@2/2/1']);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 3n })), ['a=2@2/3/2']);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 4n })), []);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 5n })), ['b=1@5/5/1']);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 6n })), ['a=3@6/6/1', 'b=1@5/5/1']);
    assert.equal(unwrap(await s.range(params({ ...ALL, revision: 3n, countOnly: true }))).count, 1n);
    assert.deepEqual(await s.range(params({ ...ALL, revision: 7n })), { ok: false, error: { kind: 'FutureRev', currentRevision: 6n } });
    await unwrap(s.compact(3n)).done;
    assert.deepEqual(await s.range(params({ ...ALL, revision: 2n })), { ok: false, error: { kind: 'Compacted', compactRevision: 3n } });
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: 3n })), ['a=2@2/3/2']);
    assert.deepEqual(await rangeShow(s, params({ ...ALL, revision: -1n })), ['a=3@6/6/1', 'b=1@5/5/1']);
  });
});
