// Event delivery (ETCD-FACTS §3.8): grouping by revision, header revisions, filters, prev_kv, replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allEvs, evs, k, world } from './harness.js';

const NOPUT = 0;
const NODELETE = 1;

void test('all events of one revision arrive together, live header revision = that revision', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), rangeEnd: k('z') });
  c.take();
  w.write({ put: 'a', value: '1' }, { put: 'b', value: '2' }, { put: 'c', value: '3' });
  w.write({ del: 'b' });
  const got = c.take();
  assert.deepEqual(got.map(evs), [['PUT a@2', 'PUT b@2', 'PUT c@2'], ['DELETE b@3']]);
  assert.deepEqual(
    got.map((r) => r.header?.revision),
    [2n, 3n],
  );
});

void test('a delete event carries only key and mod_revision', () => {
  const w = world();
  w.put('a');
  const c = w.client();
  c.create({ key: k('a') });
  c.take();
  w.del('a');
  const e = c.take()[0]?.events[0];
  assert.deepEqual(e?.kv, { key: k('a'), createRevision: 0n, modRevision: 3n, version: 0n, value: Buffer.alloc(0), lease: 0n });
});

void test('NOPUT drops puts, NODELETE drops deletes; a response left empty is not sent', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), filters: [NOPUT] });
  c.create({ key: k('a'), filters: [NODELETE] });
  c.create({ key: k('a'), filters: [NOPUT, NODELETE] });
  c.take();
  w.put('a');
  w.del('a');
  const got = c.take();
  assert.deepEqual(
    got.map((r) => [r.watchId, ...evs(r)]),
    [
      [1n, 'PUT a@2'],
      [0n, 'DELETE a@3'],
    ],
  );
});

void test('prev_kv: attached when asked (not for creations), stripped otherwise', () => {
  const w = world();
  const c = w.client();
  c.create({ key: k('a'), prevKv: true });
  c.create({ key: k('a') });
  c.take();
  w.put('a', 'one');
  w.put('a', 'two');
  w.del('a');
  const got = c.take();
  const withPrev = got.filter((r) => r.watchId === 0n).map((r) => r.events[0]?.prevKv?.value.toString());
  assert.deepEqual(withPrev, [undefined, 'one', 'two']);
  const without = got.filter((r) => r.watchId === 1n).map((r) => r.events[0]?.prevKv);
  assert.deepEqual(without, [undefined, undefined, undefined]);
  assert.equal(w.log.all[1]?.prevKv?.value.toString(), 'one', 'stripping never mutates the shared event');
});

void test('prev_kv: values left unread by the store are read once per event, only for events prev_kv watchers get', () => {
  const asked: string[] = [];
  // The store's readPrev: here every event's prevKv value is upper-cased to show it was "read".
  const w = world({
    readPrev: (events) => {
      asked.push(events.map((e) => e.kv!.key.toString()).join(','));
      return events.map((e) => (e.prevKv === undefined ? e : { ...e, prevKv: { ...e.prevKv, value: Buffer.from(e.prevKv.value.toString().toUpperCase()) } }));
    },
  });
  const c = w.client();
  c.create({ key: k('a'), prevKv: true });
  c.create({ key: k('a'), rangeEnd: k('b'), prevKv: true });
  c.create({ key: k('a'), rangeEnd: k('z') });
  c.take();
  w.put('a', 'one');
  w.write({ put: 'a', value: 'two' }, { put: 'c', value: 'x' });
  const got = c.take();
  const prevOf = (id: bigint): (string | undefined)[] => got.filter((r) => r.watchId === id).map((r) => r.events[0]?.prevKv?.value.toString());
  assert.deepEqual(prevOf(0n), [undefined, 'ONE']);
  assert.deepEqual(prevOf(1n), [undefined, 'ONE']);
  assert.deepEqual(prevOf(2n), [undefined, undefined]);
  // One read per write of `a` for both prev_kv watchers; `c` reaches no prev_kv watcher and is never read.
  assert.deepEqual(asked, ['a', 'a']);
  assert.equal(w.log.all[1]?.prevKv?.value.toString(), 'one', 'the shared event is not changed');
});

void test('start_revision ≤ current replays history then continues live, header = store revision for replay', async () => {
  const w = world();
  w.put('a');
  w.put('b');
  w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 2n });
  c.take();
  assert.equal(w.hub.stats().slowWatchers, 1);
  await w.port.settle();
  const replay = c.take();
  assert.deepEqual(replay.map(evs), [['PUT a@2', 'PUT a@4']]);
  assert.equal(replay[0]?.header?.revision, 4n);
  assert.equal(w.hub.stats().slowWatchers, 0);
  w.put('a');
  assert.deepEqual(allEvs(c.take()), ['PUT a@5']);
});

void test('no event is created before the created reply, even when replay is immediate', async () => {
  const w = world();
  w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 1n });
  await w.port.settle();
  const got = c.take();
  assert.equal(got[0]?.created, true);
  assert.deepEqual(allEvs(got), ['PUT a@2']);
});

void test('writes during an in-flight catch-up read are neither lost nor repeated', async () => {
  const w = world();
  w.put('a');
  w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 2n });
  c.take();
  assert.equal(w.port.pendingCount, 1);
  w.put('a');
  w.put('a');
  await w.port.resolveOne(0);
  w.put('a');
  await w.port.settle();
  w.put('a');
  assert.deepEqual(allEvs(c.take()), ['PUT a@2', 'PUT a@3', 'PUT a@4', 'PUT a@5', 'PUT a@6', 'PUT a@7']);
});

void test('catch-up reads history in bounded windows', async () => {
  const w = world({ catchUpRevisions: 3 });
  for (let i = 0; i < 10; i++) w.put('a');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 1n });
  await w.port.settle();
  assert.equal(w.port.calls, 4, 'revisions 1..11 in windows of 3');
  const got = c.take().slice(1);
  assert.deepEqual(got.map(evs), [
    ['PUT a@2', 'PUT a@3'],
    ['PUT a@4', 'PUT a@5', 'PUT a@6'],
    ['PUT a@7', 'PUT a@8', 'PUT a@9'],
    ['PUT a@10', 'PUT a@11'],
  ]);
});

void test('a prefix watch sees only its keys; thousands of single-key watchers are matched by key', () => {
  const w = world();
  const c = w.client();
  for (let i = 0; i < 5000; i++) c.create({ key: k(`key-${i}`) });
  c.create({ key: k('key-1'), rangeEnd: k('key-2') });
  c.take();
  w.put('key-1234');
  const got = c.take();
  assert.deepEqual(
    got.map((r) => r.watchId),
    [1234n, 5000n],
  );
});

void test('catch-up is round robin: a long backlog does not hold back other watchers', async () => {
  const w = world({ catchUpRevisions: 2, catchUpConcurrency: 1 });
  for (let i = 0; i < 20; i++) w.put('a');
  w.put('b');
  const c = w.client();
  c.create({ key: k('a'), startRevision: 1n });
  c.create({ key: k('b'), startRevision: 21n });
  c.take();
  await w.port.resolveOne(0);
  await w.port.resolveOne(0);
  const early = c.take();
  assert.deepEqual(allEvs(early.filter((r) => r.watchId === 1n)), ['PUT b@22'], 'the short watcher was served in the second round');
  await w.port.settle();
  const a = allEvs([...early, ...c.take()].filter((r) => r.watchId === 0n));
  assert.deepEqual(a, Array.from({ length: 20 }, (_, i) => `PUT a@${i + 2}`));
});
