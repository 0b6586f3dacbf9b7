// Lease-based leader election on virtual time against the in-memory KubeClient (the same
// scenarios run against the test API server in leader-election-api.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LeaderElector } from '../../../operator/runtime/leader-election.js';
import { decideAttempt, microTime, observe, type Lease } from '../../../operator/runtime/lease-record.js';
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import type { KubeClient } from '../../../operator/runtime/kube/types.js';
import { ManualTimers } from './manual-timers.js';

function elector(kube: KubeClient, timers: ManualTimers, identity: string, log: string[]) {
  const e = new LeaderElector({
    kube,
    timers,
    namespace: 'ops',
    name: 'kvstore-operator',
    identity,
    onStartedLeading: (signal) => {
      log.push(`${identity} started`);
      signal.addEventListener('abort', () => log.push(`${identity} signal aborted`));
    },
    onStoppedLeading: () => log.push(`${identity} stopped`),
  });
  return e;
}

async function lease(kube: KubeClient): Promise<Lease> {
  const r = await kube.get<Lease>({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'ops', name: 'kvstore-operator' });
  assert.ok(r.ok);
  return r.value;
}

void test('microTime has six fractional digits', () => {
  assert.equal(microTime(Date.UTC(2026, 10, 21, 10, 32, 2, 123)), '2026-11-21T10:32:02.123000Z');
});

void test('a held, unexpired lease is not taken; an expired or released one is, with a transition', () => {
  const spec = { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: microTime(0), renewTime: microTime(0), leaseTransitions: 2 };
  const seen = observe(undefined, spec, 1000);
  assert.deepEqual(decideAttempt('b', spec, seen, 15_999, 15), { kind: 'HeldByOther', holder: 'a', expiresInMs: 1 });
  const takeover = decideAttempt('b', spec, seen, 16_000, 15);
  assert.equal(takeover.kind, 'Write');
  assert.equal(takeover.kind === 'Write' && takeover.spec.leaseTransitions, 3);
  assert.equal(takeover.kind === 'Write' && takeover.spec.acquireTime, microTime(16_000));
  const renew = decideAttempt('a', spec, seen, 5000, 15);
  assert.deepEqual(renew.kind === 'Write' && renew.spec, { ...spec, renewTime: microTime(5000) });
  const released = decideAttempt('b', { ...spec, holderIdentity: '' }, seen, 1001, 15);
  assert.equal(released.kind, 'Write');
});

void test('observation keeps the first time a record was seen (our clock, not the holder’s)', () => {
  const spec = { holderIdentity: 'a', renewTime: microTime(0), leaseDurationSeconds: 15 };
  const first = observe(undefined, spec, 100);
  assert.equal(observe(first, spec, 9000).at, 100);
  assert.equal(observe(first, { ...spec, renewTime: microTime(1) }, 9000).at, 9000);
});

void test('one of two candidates leads; the other takes over after the leader stops', async () => {
  const kube = new MemoryKubeClient();
  const timers = new ManualTimers();
  const log: string[] = [];
  const a = elector(kube, timers, 'a', log);
  const b = elector(kube, timers, 'b', log);
  a.start();
  await timers.advance(0);
  b.start();
  await timers.advance(10_000);
  assert.deepEqual(log, ['a started']);
  assert.equal(a.isLeader, true);
  assert.equal(b.isLeader, false);
  const held = await lease(kube);
  assert.equal(held.spec?.holderIdentity, 'a');
  assert.equal(held.spec?.leaseTransitions, 0);
  assert.match(held.spec?.renewTime ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  await a.stop();
  assert.deepEqual(log, ['a started', 'a signal aborted', 'a stopped']);
  await timers.advance(2000);
  assert.deepEqual(log.slice(3), ['b started'], 'the released lease is taken at the next retry, not after expiry');
  const taken = await lease(kube);
  assert.equal(taken.spec?.holderIdentity, 'b');
  assert.equal(taken.spec?.leaseTransitions, 1);
  await b.stop();
});

void test('a leader that cannot renew steps down at the deadline; the other takes over after expiry', async () => {
  const kube = new MemoryKubeClient();
  const timers = new ManualTimers();
  const log: string[] = [];
  const cut = new Set<string>();
  // Calls of a candidate go through a view of the client that fails while it is cut off.
  const viewFor = (id: string): KubeClient =>
    new Proxy(kube, {
      get(target, prop, receiver) {
        const value: unknown = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          cut.has(id) ? Promise.resolve({ ok: false, error: { kind: 'Unreachable', status: 0, message: 'cut off' } }) : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  const a = elector(viewFor('a'), timers, 'a', log);
  const b = elector(viewFor('b'), timers, 'b', log);
  a.start();
  await timers.advance(0);
  b.start();
  await timers.advance(4000);
  cut.add('a');
  const cutAt = timers.now();
  await timers.advance(9000);
  assert.deepEqual(log, ['a started']);
  await timers.advance(1000);
  assert.deepEqual(log, ['a started', 'a signal aborted', 'a stopped']);
  assert.ok(timers.now() - cutAt <= 10_000);
  await timers.advance(8000);
  assert.deepEqual(log.slice(3), ['b started']);
  assert.equal((await lease(kube)).spec?.leaseTransitions, 1);
  cut.delete('a');
  await timers.advance(30_000);
  assert.equal(a.isLeader, false, 'a back online stays a candidate while b renews');
  assert.equal(b.isLeader, true);
  await a.stop();
  await b.stop();
});

void test('a leader that sees another holder on the lease steps down at once', async () => {
  const kube = new MemoryKubeClient();
  const timers = new ManualTimers();
  const log: string[] = [];
  const a = elector(kube, timers, 'a', log);
  a.start();
  await timers.advance(0);
  const current = await lease(kube);
  const r = await kube.replace({ ...current, spec: { ...current.spec, holderIdentity: 'intruder', renewTime: microTime(timers.now()) } });
  assert.ok(r.ok);
  await timers.advance(2000);
  assert.deepEqual(log, ['a started', 'a signal aborted', 'a stopped']);
  await a.stop();
});

void test('two candidates racing to create the lease: exactly one leads', async () => {
  const kube = new MemoryKubeClient();
  const timers = new ManualTimers();
  const log: string[] = [];
  const a = elector(kube, timers, 'a', log);
  const b = elector(kube, timers, 'b', log);
  a.start();
  b.start();
  await timers.advance(20_000);
  assert.equal([a.isLeader, b.isLeader].filter(Boolean).length, 1);
  assert.equal(log.length, 1);
  await a.stop();
  await b.stop();
});

void test('with a jitter source, retries wait between 1 and 2.2 retry periods', async () => {
  const kube = new MemoryKubeClient();
  const timers = new ManualTimers();
  const draws = [0, 0.5, 0.999];
  let i = 0;
  const e = new LeaderElector({
    kube,
    timers,
    namespace: 'ops',
    name: 'l',
    identity: 'a',
    random: () => draws[i++ % draws.length] as number,
    onStartedLeading: () => undefined,
    onStoppedLeading: () => undefined,
  });
  e.start();
  await timers.advance(0);
  const waits: number[] = [];
  for (let k = 0; k < 3; k++) {
    const pending = timers.pending().filter((d) => d < 10_000);
    waits.push(Math.min(...pending));
    await timers.advance(Math.min(...pending));
  }
  assert.deepEqual(waits.map((w) => Math.round(w)), [2000, 3200, 4398]);
  await e.stop();
});
