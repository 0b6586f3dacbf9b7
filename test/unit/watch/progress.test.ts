// Progress notifications (ETCD-FACTS §3.8): progress_notify ticks and progress_request (3.4.25+ rule).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { k, world } from './harness.js';

void test('progressTick: a synced progress_notify watcher that got nothing since the last tick gets its progress', () => {
  const w = world();
  w.put('x');
  const c = w.client();
  c.create({ key: k('a'), progressNotify: true });
  c.create({ key: k('b') });
  c.take();
  w.hub.progressTick();
  const [p, ...rest] = c.take();
  assert.deepEqual(rest, []);
  assert.deepEqual([p?.watchId, p?.events.length, p?.created, p?.canceled, p?.header?.revision], [0n, 0, false, false, 2n]);
});

void test('progressTick: no progress for a watcher that received events since the previous tick', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), progressNotify: true });
  c.take();
  w.put('a');
  c.take();
  w.hub.progressTick();
  assert.deepEqual(c.take(), []);
  w.hub.progressTick();
  assert.equal(c.take()[0]?.header?.revision, 2n);
});

void test('progressTick: an unsynced watcher gets no progress', () => {
  const w = world();
  w.put('a');
  const c = w.client();
  c.create({ key: k('a'), progressNotify: true, startRevision: 1n });
  c.take();
  w.hub.progressTick();
  assert.deepEqual(c.take(), []);
});

void test('progress_request: all watchers synced → one event-less response, watch_id -1, current revision', () => {
  const w = world();
  w.put('a');
  const c = w.client();
  c.create({ key: k('a') });
  c.create({ key: k('b') });
  c.take();
  c.progress();
  const got = c.take();
  assert.equal(got.length, 1);
  assert.deepEqual([got[0]?.watchId, got[0]?.events.length, got[0]?.header?.revision], [-1n, 0, 2n]);
});

void test('progress_request waits while a watcher of the stream is unsynced, then answers once', async () => {
  const w = world();
  w.put('a');
  w.put('a');
  const c = w.client();
  c.create({ key: k('b') });
  c.create({ key: k('a'), startRevision: 2n });
  c.take();
  c.progress();
  c.progress();
  assert.deepEqual(c.take(), []);
  w.put('a');
  await w.port.settle();
  const got = c.take();
  assert.deepEqual(
    got.map((r) => [r.watchId, r.events.length, r.header?.revision]),
    [
      [1n, 2, 4n],
      [1n, 1, 4n],
      [-1n, 0, 4n],
    ],
    'the catch-up events come before the progress that covers them',
  );
});

void test('progress_request on a stream without watchers is not answered', () => {
  const w = world();
  const c = w.client();
  c.progress();
  assert.deepEqual(c.take(), []);
});

void test('a pending progress_request is answered when the unsynced watcher is cancelled', () => {
  const w = world();
  w.put('a');
  const c = w.client();
  c.create({ key: k('b') });
  c.create({ key: k('a'), startRevision: 1n });
  c.take();
  c.progress();
  c.cancel(1n);
  assert.deepEqual(
    c.take().map((r) => [r.watchId, r.canceled]),
    [
      [1n, true],
      [-1n, false],
    ],
  );
});
