// The informer with a fake list and watch transport: cache and handlers, reconnect after the
// server ends a watch, relist after 410 Gone, restart with backoff after errors, stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Informer, type ListWatchSource, type WatchTransport } from '../../../operator/runtime/informer.js';
import type { KubeList, KubeObject, KubeResult } from '../../../operator/runtime/kube/types.js';
import { ManualTimers, flush } from './manual-timers.js';

interface Cm extends KubeObject {
  readonly data?: Record<string, string>;
}

function cm(name: string, rv: number, v = ''): Cm {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', resourceVersion: String(rv) }, data: { v } };
}

interface OpenWatch {
  readonly query: Record<string, unknown>;
  readonly send: (type: string, object: unknown) => void;
  readonly end: (err: unknown) => void;
  readonly aborted: () => boolean;
}

/** A scripted API server: the list answers `listAnswer`, each watch is handed to the test. */
function fakeServer() {
  const state = {
    listAnswer: { ok: true, value: { items: [], resourceVersion: '1' } } as KubeResult<KubeList<Cm>>,
    lists: 0,
    watches: [] as OpenWatch[],
    /** When set, the next watch fails at once with this error (as client-node reports HTTP errors). */
    nextWatchError: undefined as unknown,
  };
  const watcher: WatchTransport = {
    watch(_path, query, callback, done) {
      const controller = new AbortController();
      let ended = false;
      const end = (err: unknown): void => {
        if (ended) return;
        ended = true;
        controller.abort();
        (done as (e: unknown) => void)(err);
      };
      if (state.nextWatchError !== undefined) {
        const err = state.nextWatchError;
        state.nextWatchError = undefined;
        end(err);
        return Promise.resolve(controller);
      }
      state.watches.push({ query, send: (type, object) => callback(type, object), end, aborted: () => controller.signal.aborted });
      return Promise.resolve(controller);
    },
  };
  const source: ListWatchSource<Cm> = {
    path: '/api/v1/namespaces/ns/configmaps',
    watcher,
    list: () => {
      state.lists += 1;
      return Promise.resolve(state.listAnswer);
    },
  };
  return { state, source, current: () => state.watches.at(-1) };
}

function recorder() {
  const events: string[] = [];
  return {
    events,
    handlers: {
      add: (o: Cm) => events.push(`add ${o.metadata.name}@${o.metadata.resourceVersion ?? ''}`),
      update: (o: Cm) => events.push(`update ${o.metadata.name}@${o.metadata.resourceVersion ?? ''}`),
      delete: (o: Cm) => events.push(`delete ${o.metadata.name}`),
    },
  };
}

void test('lists, then watches from the list resourceVersion; events keep the cache', async () => {
  const timers = new ManualTimers();
  const s = fakeServer();
  s.state.listAnswer = { ok: true, value: { items: [cm('a', 5), cm('b', 6)], resourceVersion: '7' } };
  const r = recorder();
  const inf = new Informer<Cm>({ source: s.source, timers, handlers: r.handlers });
  assert.equal(inf.synced, false);
  inf.start();
  await inf.whenSynced();
  await flush();
  assert.deepEqual(r.events, ['add a@5', 'add b@6']);
  assert.equal(s.current()?.query['resourceVersion'], '7');
  assert.equal(s.current()?.query['timeoutSeconds'], 300);
  s.current()?.send('ADDED', cm('c', 8));
  s.current()?.send('MODIFIED', cm('a', 9, 'x'));
  s.current()?.send('DELETED', cm('b', 10));
  assert.deepEqual(r.events.slice(2), ['add c@8', 'update a@9', 'delete b']);
  assert.deepEqual(inf.list('ns').map((o) => o.metadata.name).sort(), ['a', 'c']);
  assert.equal(inf.get('a', 'ns')?.data?.['v'], 'x');
  assert.equal(inf.resourceVersion(), '10');
  await inf.stop();
});

void test('a watch the server ends is resumed from the last resourceVersion without relisting', async () => {
  const timers = new ManualTimers();
  const s = fakeServer();
  const r = recorder();
  const inf = new Informer<Cm>({ source: s.source, timers, handlers: r.handlers });
  inf.start();
  await inf.whenSynced();
  await flush();
  s.current()?.send('ADDED', cm('a', 4));
  await timers.advance(60_000); // the watch lived a while (e.g. its timeoutSeconds)
  s.current()?.end(null);
  await flush();
  assert.equal(s.state.watches.length, 2, 'resumed at once');
  assert.equal(s.current()?.query['resourceVersion'], '4');
  assert.equal(s.state.lists, 1);
  assert.equal(inf.restarts, 0);
  await inf.stop();
});

void test('watches that end right after they start are resumed with backoff, not in a hot loop', async () => {
  const timers = new ManualTimers();
  const s = fakeServer();
  const inf = new Informer<Cm>({ source: s.source, timers, handlers: {} });
  inf.start();
  await inf.whenSynced();
  await flush();
  s.current()?.end(null);
  await flush();
  assert.equal(s.state.watches.length, 1);
  await timers.advance(1000);
  assert.equal(s.state.watches.length, 2);
  s.current()?.end(null);
  await timers.advance(1999);
  assert.equal(s.state.watches.length, 2);
  await timers.advance(1);
  assert.equal(s.state.watches.length, 3, 'the second quick end waits twice as long');
  await timers.advance(5000);
  s.current()?.end(null);
  await flush();
  assert.equal(s.state.watches.length, 4, 'a watch that lasted resumes at once');
  assert.equal(s.state.lists, 1);
  await inf.stop();
});

void test('410 Gone (as a watch ERROR event, or as the HTTP answer) relists and reconciles the cache', async () => {
  const timers = new ManualTimers();
  const s = fakeServer();
  s.state.listAnswer = { ok: true, value: { items: [cm('a', 2), cm('b', 3)], resourceVersion: '3' } };
  const r = recorder();
  const inf = new Informer<Cm>({ source: s.source, timers, handlers: r.handlers });
  inf.start();
  await inf.whenSynced();
  await flush();
  // The server compacted its history: b was deleted and c created meanwhile.
  s.state.listAnswer = { ok: true, value: { items: [cm('a', 2), cm('c', 20)], resourceVersion: '21' } };
  await timers.advance(60_000);
  s.current()?.send('ERROR', { kind: 'Status', apiVersion: 'v1', code: 410, reason: 'Expired', message: 'too old resource version' });
  s.current()?.end(null);
  await flush();
  assert.equal(s.state.lists, 2);
  assert.deepEqual(r.events.slice(2), ['delete b', 'add c@20']);
  assert.equal(s.current()?.query['resourceVersion'], '21');
  // Same with the 410 as the HTTP status of a new watch request.
  s.state.listAnswer = { ok: true, value: { items: [cm('c', 20)], resourceVersion: '30' } };
  await timers.advance(60_000);
  s.current()?.end(null);
  await flush();
  s.current()?.end(Object.assign(new Error('Gone'), { statusCode: 410 }));
  await flush();
  assert.equal(s.state.lists, 3);
  assert.deepEqual(r.events.slice(4), ['delete a']);
  assert.equal(inf.restarts, 0, 'a 410 is not an error: no backoff');
  await inf.stop();
});

void test('errors restart the informer with backoff; an established watch resets the backoff', async () => {
  const timers = new ManualTimers();
  const s = fakeServer();
  const errors: number[] = [];
  const r = recorder();
  s.state.listAnswer = { ok: false, error: { kind: 'Unreachable', status: 0, message: 'connect ECONNREFUSED' } };
  const inf = new Informer<Cm>({ source: s.source, timers, handlers: r.handlers, onError: (_e, d) => errors.push(d) });
  inf.start();
  await flush();
  assert.deepEqual(errors, [1000]);
  assert.equal(inf.synced, false);
  await timers.advance(1000);
  await timers.advance(2000);
  assert.deepEqual(errors, [1000, 2000, 4000]);
  assert.equal(s.state.lists, 3);
  s.state.listAnswer = { ok: true, value: { items: [cm('a', 1)], resourceVersion: '1' } };
  await timers.advance(4000);
  assert.equal(inf.synced, true);
  assert.equal(inf.restarts, 3);
  s.current()?.send('ADDED', cm('b', 2));
  // The connection drops with an error: restart after the base delay, watching from rv 2.
  s.current()?.end(new Error('read ECONNRESET'));
  await flush();
  assert.deepEqual(errors.slice(3), [1000]);
  await timers.advance(999);
  assert.equal(s.state.watches.length, 1);
  await timers.advance(1);
  assert.equal(s.state.watches.length, 2);
  assert.equal(s.current()?.query['resourceVersion'], '2');
  assert.equal(s.state.lists, 4, 'no relist after a plain error');
  assert.deepEqual(r.events, ['add a@1', 'add b@2']);
  await inf.stop();
});

void test('stop cancels a pending restart and closes the watch', async () => {
  const timers = new ManualTimers();
  const s = fakeServer();
  const errors: number[] = [];
  const inf = new Informer<Cm>({ source: s.source, timers, handlers: {}, onError: (_e, d) => errors.push(d) });
  inf.start();
  await inf.whenSynced();
  await flush();
  s.current()?.end(new Error('read ECONNRESET'));
  await flush();
  assert.deepEqual(errors, [1000]);
  await inf.stop();
  await timers.advance(120_000);
  assert.equal(s.state.watches.length, 1, 'the pending restart was cancelled');
  inf.start();
  await flush();
  const w = s.current();
  assert.equal(s.state.watches.length, 2);
  await inf.stop();
  assert.equal(w?.aborted(), true);
  await timers.advance(120_000);
  assert.equal(s.state.watches.length, 2);
  assert.deepEqual(errors, [1000], 'the abort caused by stop is not an error');
});
