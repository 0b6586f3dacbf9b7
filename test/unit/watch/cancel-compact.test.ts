// Cancel, close and compaction (ETCD-FACTS §3.8).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allEvs, k, world } from './harness.js';

void test('cancel of an existing id → canceled=true with that id; no events afterwards', () => {
  const w = world();
  w.put('x');
  const c = w.client();
  c.create({ key: k('a') });
  c.take();
  c.cancel(0n);
  const [r] = c.take();
  assert.deepEqual([r?.watchId, r?.canceled, r?.created, r?.header?.revision], [0n, true, false, 2n]);
  w.put('a');
  assert.deepEqual(c.take(), []);
  assert.equal(w.hub.stats().watchers, 0);
});

void test('cancel of an unknown id is silently ignored', () => {
  const w = world();
  const c = w.client();
  c.cancel(9n);
  assert.deepEqual(c.take(), []);
});

void test('cancel while a catch-up read is in flight discards the read', async () => {
  const w = world();
  w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 1n });
  c.cancel(0n);
  await w.port.settle();
  assert.deepEqual(
    c.take().map((r) => [r.created, r.canceled, r.events.length]),
    [
      [true, false, 0],
      [false, true, 0],
    ],
  );
});

void test('close ends every watcher of the session, sends nothing more and is idempotent', async () => {
  const w = world();
  w.put('a');
  const c = w.client();
  const other = w.client();
  c.create({ key: k('a') });
  c.create({ key: k('a'), startRevision: 1n });
  other.create({ key: k('a') });
  c.take();
  other.take();
  c.session.close();
  c.session.close();
  w.put('a');
  await w.port.settle();
  c.create({ key: k('a') });
  await c.drain();
  assert.deepEqual(c.take(), []);
  assert.deepEqual(allEvs(other.take()), ['PUT a@3']);
  assert.deepEqual(w.hub.stats(), { streams: 1, watchers: 1, slowWatchers: 0, pendingEvents: 0 });
});

void test('a watcher catching up that falls below a compaction gets the compacted cancel', async () => {
  const w = world();
  for (let i = 0; i < 6; i++) w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 3n });
  c.take();
  w.compact(5n);
  const [r] = c.take();
  assert.deepEqual([r?.watchId, r?.canceled, r?.compactRevision, r?.header?.revision], [0n, true, 5n, 0n]);
  await w.port.settle();
  w.put('a');
  assert.deepEqual(c.take(), [], 'the in-flight read and later writes deliver nothing');
});

void test('a compaction the hub was not told about surfaces through the history error', async () => {
  const w = world();
  for (let i = 0; i < 6; i++) w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 3n });
  c.take();
  w.log.compact(6n);
  await w.port.settle();
  const [r] = c.take();
  assert.deepEqual([r?.canceled, r?.compactRevision], [true, 6n]);
  assert.equal(w.hub.stats().watchers, 0);
});

void test('a compaction does not touch synced watchers or watchers already above it', async () => {
  const w = world();
  for (let i = 0; i < 6; i++) w.put('a');
  const c = w.client();
  c.create({ key: k('a') });
  c.create({ key: k('a'), startRevision: 6n });
  w.compact(5n);
  await w.port.settle();
  const got = c.take();
  assert.equal(
    got.some((r) => r.canceled),
    false,
  );
  assert.deepEqual(allEvs(got), ['PUT a@6', 'PUT a@7']);
});

void test('a history read failing with a non-compaction error is retried on the next kick', async () => {
  let failures = 1;
  const w2 = world({
    history: async (from, to, key, end) => {
      if (failures-- > 0) return { ok: false, error: { kind: 'Internal', message: 'disk' } };
      return w2.log.history(from, to, key, end);
    },
  });
  w2.put('a');
  const c = w2.client();
  c.create({ key: k('a'), startRevision: 1n });
  c.take();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(c.take(), []);
  assert.equal(w2.hub.stats().slowWatchers, 1);
  w2.hub.progressTick();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(allEvs(c.take()), ['PUT a@2']);
  assert.equal(w2.hub.stats().slowWatchers, 0);
});

void test('a history read that rejects is treated like a failed read (no unhandled rejection)', async () => {
  let calls = 0;
  const w = world({
    history: (from, to, key, end) => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('boom'));
      return Promise.resolve(w.log.history(from, to, key, end));
    },
  });
  w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 2n });
  await new Promise((resolve) => setImmediate(resolve));
  w.put('b');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(allEvs(c.take()), ['PUT a@2'], 'the write kicked the parked watcher');
});
