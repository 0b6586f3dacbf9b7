// Watch creation rules (ETCD-FACTS §3.8, §3.1): ids, created replies, create failures, start revisions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancelReason } from '../../../server/watch/index.js';
import { allEvs, k, world } from './harness.js';

void test('watch ids start at 0 per stream and count up; created reply carries the current revision', () => {
  const w = world();
  w.put('a');
  const c1 = w.client();
  const c2 = w.client();
  c1.create({ key: k('a') });
  c1.create({ key: k('b') });
  c2.create({ key: k('a') });
  const got = c1.take();
  assert.deepEqual(
    got.map((r) => [r.watchId, r.created, r.canceled, r.header?.revision]),
    [
      [0n, true, false, 2n],
      [1n, true, false, 2n],
    ],
  );
  assert.deepEqual(got[0]?.header, { clusterId: 11n, memberId: 22n, revision: 2n, raftTerm: 3n });
  assert.equal(c2.take()[0]?.watchId, 0n);
});

void test('the per-stream counter skips ids already in use; a requested free id is honoured', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), watchId: 1n });
  c.create({ key: k('a') });
  c.create({ key: k('a') });
  c.create({ key: k('a'), watchId: 7n });
  assert.deepEqual(
    c.take().map((r) => r.watchId),
    [1n, 0n, 2n, 7n],
  );
});

void test('a requested id in use → created+canceled with watch_id -1 and the duplicate reason', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), watchId: 3n });
  c.create({ key: k('b'), watchId: 3n });
  const [, dup] = c.take();
  assert.equal(dup?.watchId, -1n);
  assert.equal(dup?.created, true);
  assert.equal(dup?.canceled, true);
  assert.equal(dup?.cancelReason, 'mvcc: duplicate watch ID provided on the WatchStream');
  assert.equal(dup?.cancelReason, CancelReason.DuplicateId);
  w.put('b');
  assert.deepEqual(c.take(), [], 'the failed create registered nothing');
});

void test('range_end ≤ key → created+canceled, watch_id -1, "mvcc: watcher range is empty"', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('b'), rangeEnd: k('a') });
  c.create({ key: k('a'), rangeEnd: k('a') });
  for (const r of c.take()) {
    assert.equal(r.watchId, -1n);
    assert.equal(r.created && r.canceled, true);
    assert.equal(r.cancelReason, 'mvcc: watcher range is empty');
  }
  assert.equal(w.hub.stats().watchers, 0);
});

void test('created replies follow request order, failures included', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a') });
  c.create({ key: k('z'), rangeEnd: k('a') });
  c.create({ key: k('b') });
  assert.deepEqual(
    c.take().map((r) => r.watchId),
    [0n, -1n, 1n],
  );
});

void test('an empty key is "\\x00": with range_end "\\x00" it watches every key, alone only key "\\x00"', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k(''), rangeEnd: k('\x00') });
  c.create({ key: k('') });
  c.take();
  w.put('a');
  w.put('\x00');
  const got = c.take();
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 0n)), ['PUT a@2', 'PUT \x00@3']);
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 1n)), ['PUT \x00@3']);
});

void test('range_end "\\x00" watches every key ≥ key; [key, range_end) is half-open', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('b'), rangeEnd: k('\x00') });
  c.create({ key: k('b'), rangeEnd: k('d') });
  c.take();
  for (const key of ['a', 'b', 'c', 'd', 'zz']) w.put(key);
  const got = c.take();
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 0n)), ['PUT b@3', 'PUT c@4', 'PUT d@5', 'PUT zz@6']);
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 1n)), ['PUT b@3', 'PUT c@4']);
});

void test('a negative start_revision → created+canceled, watch_id -1, compacted reason', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), startRevision: -5n });
  const [r] = c.take();
  assert.equal(r?.watchId, -1n);
  assert.equal(r?.created && r.canceled, true);
  assert.equal(r?.cancelReason, 'etcdserver: mvcc: required revision has been compacted');
});

void test('start_revision 0 → only events after the current revision', () => {
  const w = world();
  w.put('a');
  const c = w.client();
  c.create({ key: k('a') });
  c.take();
  w.put('a');
  assert.deepEqual(allEvs(c.take()), ['PUT a@3']);
});

void test('start_revision > current → events from that future revision on', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), startRevision: 4n });
  c.take();
  w.put('a');
  w.put('a');
  w.put('a');
  w.put('a');
  assert.deepEqual(allEvs(c.take()), ['PUT a@4', 'PUT a@5']);
  assert.equal(w.hub.stats().slowWatchers, 0);
});

void test('start_revision below the compacted revision → created, then one compacted cancel with header revision 0', async () => {
  const w = world();
  for (let i = 0; i < 5; i++) w.put('a');
  w.compact(4n);
  const c = w.client();
  c.create({ key: k('a'), startRevision: 2n });
  const got = c.take();
  assert.equal(got.length, 2);
  assert.deepEqual([got[0]?.watchId, got[0]?.created, got[0]?.header?.revision], [0n, true, 6n]);
  const cancel = got[1];
  assert.deepEqual(
    [cancel?.watchId, cancel?.canceled, cancel?.compactRevision, cancel?.header?.revision, cancel?.cancelReason, cancel?.events.length],
    [0n, true, 4n, 0n, '', 0],
  );
  await w.port.settle();
  w.put('a');
  c.cancel(0n);
  assert.deepEqual(c.take(), [], 'the compacted watcher is gone: no events, cancel ignored');
  assert.equal(w.hub.stats().watchers, 0);
});

void test('start_revision equal to the compacted revision replays from it', async () => {
  const w = world();
  for (let i = 0; i < 5; i++) w.put('a');
  w.compact(4n);
  const c = w.client();
  c.create({ key: k('a'), startRevision: 4n });
  await w.port.settle();
  assert.deepEqual(allEvs(c.take()), ['PUT a@4', 'PUT a@5', 'PUT a@6']);
});
