// Back-pressure (opt-in WatchFlow): send() returning false blocks the stream until flow.drained(); victims catch up from history.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allEvs, createReq, k, world } from './harness.js';

void test('after send returns false responses queue in order until the transport drains', async () => {
  const w = world();
  const c = w.client(1);
  c.create({ key: k('a') });
  assert.equal(c.got.length, 1, 'the created reply was accepted');
  w.put('a');
  c.create({ key: k('b') });
  w.put('b');
  assert.equal(c.got.length, 1);
  assert.deepEqual(w.hub.stats().pendingEvents, 2);
  c.limit = Infinity;
  await c.drain();
  assert.deepEqual(
    c.take().map((r) => [r.watchId, r.created, ...r.events.map((e) => e.kv?.modRevision)]),
    [
      [0n, true],
      [0n, false, 2n],
      [1n, true],
      [1n, false, 3n],
    ],
  );
  assert.equal(w.hub.stats().pendingEvents, 0);
});

void test('a drain that fills the transport again stops at the new high-water mark', async () => {
  const w = world();
  const c = w.client(1);
  c.create({ key: k('a') });
  w.put('a');
  w.put('a');
  w.put('a');
  await c.drain();
  assert.equal(c.got.length, 2, 'one more response went out, then send pushed back');
  assert.equal(w.hub.stats().pendingEvents, 2);
  c.limit = Infinity;
  await c.drain();
  assert.deepEqual(allEvs(c.take()), ['PUT a@2', 'PUT a@3', 'PUT a@4']);
});

void test('past the pending bound a watcher becomes a victim and later catches up from history', async () => {
  const w = world({ maxPendingEvents: 2 });
  const c = w.client(1);
  const fast = w.client();
  c.create({ key: k('a') });
  fast.create({ key: k('a') });
  for (let i = 0; i < 5; i++) w.put('a');
  assert.deepEqual(w.hub.stats(), { streams: 2, watchers: 2, slowWatchers: 1, pendingEvents: 2 });
  assert.deepEqual(allEvs(fast.take()), ['PUT a@2', 'PUT a@3', 'PUT a@4', 'PUT a@5', 'PUT a@6'], 'other streams are unaffected');
  c.limit = Infinity;
  await c.drain();
  await w.port.settle();
  w.put('a');
  assert.deepEqual(allEvs(c.take()), ['PUT a@2', 'PUT a@3', 'PUT a@4', 'PUT a@5', 'PUT a@6', 'PUT a@7']);
  assert.deepEqual(w.hub.stats(), { streams: 2, watchers: 2, slowWatchers: 0, pendingEvents: 0 });
});

void test('a victim that falls below a compaction before the drain gets the compacted cancel', async () => {
  const w = world({ maxPendingEvents: 1 });
  const c = w.client(1);
  c.create({ key: k('a') });
  for (let i = 0; i < 4; i++) w.put('a');
  w.compact(4n);
  c.limit = Infinity;
  await c.drain();
  await w.port.settle();
  const got = c.take();
  assert.deepEqual(allEvs(got), ['PUT a@2']);
  const last = got[got.length - 1];
  assert.deepEqual([last?.canceled, last?.compactRevision], [true, 4n]);
});

void test('catch-up results that find the stream blocked are dropped and re-read after the drain', async () => {
  const w = world();
  w.put('a');
  w.put('a');
  const c = w.client(3);
  c.create({ key: k('b') });
  c.create({ key: k('a'), startRevision: 2n });
  assert.equal(w.port.pendingCount, 1);
  w.put('b');
  await w.port.settle();
  assert.equal(c.got.length, 3, 'two created replies and the live event that filled the transport');
  assert.equal(w.hub.stats().slowWatchers, 1);
  c.limit = Infinity;
  await c.drain();
  await w.port.settle();
  assert.equal(w.port.calls, 2);
  assert.deepEqual(allEvs(c.take()), ['PUT b@4', 'PUT a@2', 'PUT a@3']);
});

void test('progress ticks are skipped on a blocked stream', async () => {
  const w = world();
  const c = w.client(1);
  c.create({ key: k('a'), progressNotify: true });
  w.hub.progressTick();
  c.limit = Infinity;
  await c.drain();
  assert.equal(c.take().length, 1);
});

void test('a send that throws closes that session only', () => {
  const w = world();
  let calls = 0;
  const session = w.hub.openWatch(() => {
    calls++;
    if (calls > 1) throw new Error('stream reset');
  });
  const ok = w.client();
  session.request(createReq({ key: k('a') }));
  ok.create({ key: k('a') });
  w.put('a');
  w.put('a');
  assert.equal(calls, 2);
  assert.equal(allEvs(ok.take()).length, 2);
  assert.equal(w.hub.stats().streams, 1);
});

void test('without a WatchFlow, false from send is ignored: the stream never stalls', () => {
  const w = world();
  const got: number[] = [];
  const session = w.hub.openWatch((resp) => {
    got.push(resp.events.length);
    return false;
  });
  session.request(createReq({ key: k('a') }));
  for (let i = 0; i < 20; i++) w.put('a');
  assert.equal(got.length, 21);
  assert.deepEqual(w.hub.stats(), { streams: 1, watchers: 1, slowWatchers: 0, pendingEvents: 0 });
});

void test('a drained() that rejects closes the session', async () => {
  const w = world();
  const session = w.hub.openWatch(() => false, { drained: () => Promise.reject(new Error('reset')) });
  session.request(createReq({ key: k('a') }));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(w.hub.stats(), { streams: 0, watchers: 0, slowWatchers: 0, pendingEvents: 0 });
});
