/**
 * When a starting member serves clients (server/bootstrap/serve-gate.ts, client-port.ts): the
 * gate opens only once the publish went through AND the applied index reached the commit index
 * recovered from the WAL; `/health` is unhealthy until then; the client port binds only after
 * the gate opened, never when closed first, and a bind failure is reported.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientPortWhenReady } from '../../../server/bootstrap/client-port.js';
import { gateOnServing, NOT_SERVING_YET, serveGate } from '../../../server/bootstrap/serve-gate.js';
import type { ClientListeners } from '../../../server/transport/listen-clients.js';

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

void test('opens after the publish, once the applied index reached the recovered commit', async () => {
  let applied = 5;
  const gate = serveGate(10, () => applied);
  let opened = false;
  void gate.opened.then(() => (opened = true));
  applied = 12;
  gate.applied();
  await tick();
  assert.equal(gate.isOpen, false, 'applied past the recovered commit, but not published');
  gate.published();
  await tick();
  assert.equal(gate.isOpen, true);
  assert.equal(opened, true);
});

void test('a publish seen before the recovered commit is applied waits for it', async () => {
  let applied = 3;
  const gate = serveGate(10, () => applied);
  gate.published();
  assert.equal(gate.isOpen, false);
  applied = 10;
  gate.applied();
  assert.equal(gate.isOpen, true);
  await gate.opened;
});

void test('/health is unhealthy until the member serves; its own reasons come first', () => {
  assert.deepEqual(gateOnServing({ healthy: true, reason: '' }, false), { healthy: false, reason: NOT_SERVING_YET });
  assert.deepEqual(gateOnServing({ healthy: true, reason: '' }, true), { healthy: true, reason: '' });
  assert.deepEqual(gateOnServing({ healthy: false, reason: 'RAFT NO LEADER' }, false), { healthy: false, reason: 'RAFT NO LEADER' });
});

function fakeListeners(log: string[]): ClientListeners {
  return { listeners: [], close: () => Promise.resolve(void log.push('closed')) };
}

void test('the client port binds only once ready, and closes what it bound', async () => {
  const log: string[] = [];
  let ready!: () => void;
  const port = clientPortWhenReady({
    ready: new Promise<void>((r) => (ready = r)),
    listen: () => Promise.resolve(void log.push('listen')).then(() => fakeListeners(log)),
    onListening: () => log.push('listening'),
    onFailed: () => log.push('failed'),
  });
  await tick();
  assert.deepEqual(log, []);
  ready();
  await tick();
  assert.deepEqual(log, ['listen', 'listening']);
  await port.close();
  assert.deepEqual(log, ['listen', 'listening', 'closed']);
});

void test('closed before ready: never binds, and close does not wait for ready', async () => {
  const log: string[] = [];
  let ready!: () => void;
  const port = clientPortWhenReady({
    ready: new Promise<void>((r) => (ready = r)),
    listen: () => Promise.resolve(void log.push('listen')).then(() => fakeListeners(log)),
    onListening: () => log.push('listening'),
    onFailed: () => log.push('failed'),
  });
  await port.close();
  ready();
  await tick();
  assert.deepEqual(log, []);
});

void test('a bind failure is reported', async () => {
  const failures: unknown[] = [];
  clientPortWhenReady({
    ready: Promise.resolve(),
    listen: () => Promise.reject(new Error('cannot listen on http://127.0.0.1:1')),
    onListening: () => assert.fail('not bound'),
    onFailed: (e) => failures.push(e),
  });
  await tick();
  assert.equal(failures.length, 1);
  assert.match((failures[0] as Error).message, /cannot listen/);
});
