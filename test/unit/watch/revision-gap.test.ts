// The hub revision: skipped or late notify() calls are covered from history, never lost or repeated.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allEvs, k, world } from './harness.js';

void test('a skipped notify (restore) sends synced watchers to history for the gap', async () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a') });
  c.create({ key: k('b') });
  c.take();
  w.log.write([{ put: 'a', value: '1' }]);
  w.log.write([{ put: 'b', value: '2' }]);
  w.put('a');
  assert.equal(w.hub.stats().slowWatchers, 2);
  await w.port.settle();
  w.put('b');
  const got = c.take();
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 0n)), ['PUT a@2', 'PUT a@4']);
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 1n)), ['PUT b@3', 'PUT b@5']);
});

void test('a notify arriving after the hub saw the store ahead is ignored; history covers it once', async () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a') });
  c.take();
  const late = w.log.write([{ put: 'a', value: '1' }]);
  c.create({ key: k('a') });
  assert.equal(c.take()[0]?.header?.revision, 2n, 'the created reply reports the store revision');
  if (late) w.hub.notify(late.revision, late.events);
  await w.port.settle();
  w.put('a');
  const got = c.take();
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 0n)), ['PUT a@2', 'PUT a@3']);
  assert.deepEqual(allEvs(got.filter((r) => r.watchId === 1n)), ['PUT a@3'], 'start 0 means after the created revision');
});

void test('a progress_request after an unseen write waits until watchers have that write', async () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a') });
  c.take();
  w.log.write([{ put: 'a', value: '1' }]);
  c.progress();
  assert.deepEqual(c.take(), []);
  await w.port.settle();
  assert.deepEqual(
    c.take().map((r) => [r.watchId, r.events.length, r.header?.revision]),
    [
      [0n, 1, 2n],
      [-1n, 0, 2n],
    ],
  );
});
