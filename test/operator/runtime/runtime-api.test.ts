// Leader election and the informer through client-node against the in-process test API server:
// two electors share one Lease; the informer follows writes, resumes after the server ends its
// watch, relists after 410 Gone, and restarts with backoff while its resource is not served.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { ClientNodeKubeClient } from '../../../operator/runtime/kube/client-node-client.js';
import { listWatchSource } from '../../../operator/runtime/kube/list-watch-source.js';
import type { KubeClient, KubeObject } from '../../../operator/runtime/kube/types.js';
import { Informer } from '../../../operator/runtime/informer.js';
import { LeaderElector } from '../../../operator/runtime/leader-election.js';
import type { Lease } from '../../../operator/runtime/lease-record.js';
import { systemTimers } from '../../../operator/runtime/timers.js';
import type { ResourceType } from '../../support/kube-api/resources.js';
import { eventually } from '../../support/eventually.js';
import { startFixture, WIDGET_CRD, type KubeApiFixture } from './kube-api-fixture.js';

let fx: KubeApiFixture;
let client: ClientNodeKubeClient;
before(async () => {
  fx = await startFixture();
  client = new ClientNodeKubeClient(fx.kubeConfig);
});
after(async () => {
  await fx.api.close();
});

void test('leader election: one of two electors leads; the other takes over when it stops', async () => {
  const namespace = fx.namespace();
  const log: string[] = [];
  const make = (identity: string) =>
    new LeaderElector({
      kube: client,
      timers: systemTimers(),
      namespace,
      name: 'kvstore-operator',
      identity,
      leaseDurationMs: 3000,
      renewDeadlineMs: 2000,
      retryPeriodMs: 200,
      onStartedLeading: () => log.push(`${identity} started`),
      onStoppedLeading: () => log.push(`${identity} stopped`),
    });
  const a = make('a');
  const b = make('b');
  a.start();
  b.start();
  try {
    const first = await eventually('a leader', () => Promise.resolve(a.isLeader ? 'a' : b.isLeader ? 'b' : undefined));
    const [leader, other] = first === 'a' ? [a, b] : [b, a];
    const ref = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace, name: 'kvstore-operator' };
    const held = await client.get<Lease>(ref);
    assert.ok(held.ok);
    assert.equal(held.value.spec?.holderIdentity, first);
    assert.equal(held.value.spec?.leaseDurationSeconds, 3);
    assert.equal(other.isLeader, false);
    await leader.stop();
    const second = await eventually('the other leads', () => Promise.resolve(other.isLeader ? true : undefined));
    assert.equal(second, true);
    const taken = await client.get<Lease>(ref);
    assert.ok(taken.ok);
    assert.equal(taken.value.spec?.holderIdentity, first === 'a' ? 'b' : 'a');
    assert.ok((taken.value.spec?.leaseTransitions ?? 0) >= 1);
    const next = first === 'a' ? 'b' : 'a';
    assert.deepEqual(log, [`${first} started`, `${first} stopped`, `${next} started`], 'never two leaders at once');
  } finally {
    await a.stop();
    await b.stop();
  }
});

void test('leader election: a leader cut off from the API server steps down before another takes over', async () => {
  const namespace = fx.namespace();
  const log: string[] = [];
  const cut = new Set<string>();
  const viewFor = (id: string): KubeClient =>
    new Proxy(client, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          cut.has(id) ? Promise.resolve({ ok: false, error: { kind: 'Unreachable', status: 0, message: 'cut off' } }) : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  const make = (identity: string) =>
    new LeaderElector({
      kube: viewFor(identity),
      timers: systemTimers(),
      namespace,
      name: 'kvstore-operator',
      identity,
      leaseDurationMs: 3000,
      renewDeadlineMs: 2000,
      retryPeriodMs: 200,
      onStartedLeading: () => log.push(`${identity} started`),
      onStoppedLeading: () => log.push(`${identity} stopped`),
    });
  const a = make('a');
  const b = make('b');
  a.start();
  await eventually('a leads', () => Promise.resolve(a.isLeader ? true : undefined));
  b.start();
  try {
    cut.add('a');
    await eventually('b takes over', () => Promise.resolve(b.isLeader ? true : undefined));
    assert.deepEqual(log, ['a started', 'a stopped', 'b started'], 'a stepped down before b started');
    cut.delete('a');
    const lease = await client.get<Lease>({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace, name: 'kvstore-operator' });
    assert.ok(lease.ok);
    assert.equal(lease.value.spec?.holderIdentity, 'b');
    assert.equal(lease.value.spec?.leaseTransitions, 1);
  } finally {
    await a.stop();
    await b.stop();
  }
});

interface Cm extends KubeObject {
  readonly data?: Record<string, string>;
}

void test('informer: follows writes, resumes after the server ends the watch, relists after 410', async () => {
  const namespace = fx.namespace();
  const src = await listWatchSource<Cm>(fx.kubeConfig, client, { apiVersion: 'v1', kind: 'ConfigMap', namespace });
  assert.ok(src.ok);
  const log: string[] = [];
  const errors: unknown[] = [];
  const inf = new Informer<Cm>({
    source: src.value,
    timers: systemTimers(),
    handlers: {
      add: (o) => log.push(`add ${o.metadata.name}`),
      update: (o) => log.push(`update ${o.metadata.name} ${o.data?.['v'] ?? ''}`),
      delete: (o) => log.push(`delete ${o.metadata.name}`),
    },
    onError: (e) => errors.push(e),
  });
  const cm = (name: string, v: string): Cm => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { v } });
  const seen = (entry: string) => eventually(entry, () => Promise.resolve(log.includes(entry) ? true : undefined), { describe: () => log.join('; ') });
  assert.ok((await client.create(cm('before', '0'))).ok);
  inf.start();
  try {
    await inf.whenSynced();
    assert.deepEqual(log, ['add before']);
    assert.ok((await client.create(cm('x', '1'))).ok);
    assert.ok((await client.mergePatch({ apiVersion: 'v1', kind: 'ConfigMap', namespace, name: 'x' }, { data: { v: '2' } })).ok);
    await seen('update x 2');

    fx.api.endWatches();
    assert.ok((await client.create(cm('after-drop', '1'))).ok);
    await seen('add after-drop');
    assert.equal(inf.restarts, 0, 'a watch the server ends is resumed, not restarted');

    const type = fx.api.store.registry.lookup('', 'v1', 'configmaps') as ResourceType;
    fx.api.endWatches();
    fx.api.store.delete(type, namespace, 'before');
    fx.api.store.create(type, namespace, cm('behind', '1') as never);
    fx.api.store.compactHistory();
    await seen('delete before');
    await seen('add behind');
    assert.deepEqual(inf.list(namespace).map((o) => o.metadata.name).sort(), ['after-drop', 'behind', 'x']);
    assert.deepEqual(errors, []);
  } finally {
    await inf.stop();
  }
});

void test('informer: restarts with backoff while the resource is not served, and recovers', async () => {
  const namespace = fx.namespace();
  const src = await listWatchSource<KubeObject>(fx.kubeConfig, client, { apiVersion: 'test.kvstore.io/v1', kind: 'Widget', namespace });
  assert.ok(src.ok);
  const log: string[] = [];
  const delays: number[] = [];
  const inf = new Informer<KubeObject>({
    source: src.value,
    timers: systemTimers(),
    backoff: { baseMs: 50, capMs: 400 },
    handlers: { add: (o) => log.push(`add ${o.metadata.name}`), delete: (o) => log.push(`delete ${o.metadata.name}`) },
    onError: (_e, d) => delays.push(d),
  });
  const widget = (name: string): KubeObject => ({ apiVersion: 'test.kvstore.io/v1', kind: 'Widget', metadata: { name, namespace } });
  assert.ok((await client.create(widget('w1'))).ok);
  inf.start();
  const ext = fx.kubeConfig.makeApiClient(ApiextensionsV1Api);
  try {
    await inf.whenSynced();
    assert.deepEqual(log, ['add w1']);
    // The CRD goes away: the watch ends and every list/watch now fails (404).
    await ext.deleteCustomResourceDefinition({ name: 'widgets.test.kvstore.io' });
    fx.api.endWatches();
    await eventually('failing restarts back off', () => Promise.resolve(delays.length >= 3 ? true : undefined), { describe: () => delays.join(',') });
    assert.deepEqual(delays.slice(0, 3), [50, 100, 200]);
    // It comes back: the informer recovers on its own and sees new objects.
    await ext.createCustomResourceDefinition({ body: WIDGET_CRD });
    assert.ok((await client.create(widget('w2'))).ok);
    await eventually('recovered', () => Promise.resolve(log.includes('add w2') ? true : undefined), { describe: () => log.join('; ') });
    assert.ok(inf.restarts >= 3);
  } finally {
    await inf.stop();
  }
});
