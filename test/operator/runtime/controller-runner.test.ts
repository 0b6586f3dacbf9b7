// The controller runner on the test API server: informer events become reconciles of the right
// key (secondary objects map to their owner's key), deletes reconcile with no object, and with
// leader election only the leader reconciles; a new leader picks up every cached key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { ControllerRunner } from '../../../operator/runtime/controller-runner.js';
import { ClientNodeKubeClient } from '../../../operator/runtime/kube/client-node-client.js';
import { listWatchSource } from '../../../operator/runtime/kube/list-watch-source.js';
import type { KubeObject } from '../../../operator/runtime/kube/types.js';
import { createOperatorMetrics } from '../../../operator/runtime/metrics.js';
import { systemTimers } from '../../../operator/runtime/timers.js';
import { Outcome } from '../../../operator/runtime/work-queue.js';
import { eventually } from '../../support/eventually.js';
import { WIDGET_API_VERSION } from './kube-client-conformance.js';
import { startFixture, type KubeApiFixture } from './kube-api-fixture.js';

let fx: KubeApiFixture;
let client: ClientNodeKubeClient;
before(async () => {
  fx = await startFixture();
  client = new ClientNodeKubeClient(fx.kubeConfig);
});
after(async () => {
  await fx.api.close();
});

async function sources(namespace: string) {
  const primary = await listWatchSource<KubeObject>(fx.kubeConfig, client, { apiVersion: WIDGET_API_VERSION, kind: 'Widget', namespace });
  const cms = await listWatchSource<KubeObject>(fx.kubeConfig, client, { apiVersion: 'v1', kind: 'ConfigMap', namespace });
  assert.ok(primary.ok && cms.ok);
  return { primary: primary.value, cms: cms.value };
}

const widget = (namespace: string, name: string, size = 1): KubeObject & { spec: unknown } => ({
  apiVersion: WIDGET_API_VERSION,
  kind: 'Widget',
  metadata: { name, namespace },
  spec: { size },
});

void test('informer events reconcile the right keys; deletes reconcile with no object', async () => {
  const namespace = fx.namespace();
  const { primary, cms } = await sources(namespace);
  const seen: string[] = [];
  const registry = new Registry();
  const runner = new ControllerRunner<KubeObject & { spec?: { size?: number } }>({
    name: 'widgets',
    primary,
    secondary: [{ name: 'configmaps', source: cms, keysOf: (o) => (o.metadata.labels?.['owner'] !== undefined ? [`${namespace}/${o.metadata.labels['owner']}`] : []) }],
    timers: systemTimers(),
    metrics: createOperatorMetrics(registry),
    reconcile: (key, object) => {
      seen.push(`${key} ${object === undefined ? 'gone' : `size=${object.spec?.size ?? '?'}`}`);
      return Promise.resolve(Outcome.done);
    },
  });
  const has = (entry: string) => eventually(entry, () => Promise.resolve(seen.includes(entry) ? true : undefined), { describe: () => seen.join('; ') });
  assert.ok((await client.create(widget(namespace, 'w1'))).ok);
  runner.start();
  try {
    await has(`${namespace}/w1 size=1`);
    assert.deepEqual(runner.readiness().map((c) => [c.name, c.check()]), [['informer-widgets', undefined], ['informer-configmaps', undefined]]);
    assert.equal(runner.isLeader, true, 'without election the runner always leads');
    assert.ok((await client.mergePatch({ apiVersion: WIDGET_API_VERSION, kind: 'Widget', namespace, name: 'w1' }, { spec: { size: 3 } })).ok);
    await has(`${namespace}/w1 size=3`);
    seen.length = 0;
    assert.ok((await client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace, labels: { owner: 'w1' } } })).ok);
    await has(`${namespace}/w1 size=3`);
    assert.ok((await client.delete({ apiVersion: WIDGET_API_VERSION, kind: 'Widget', namespace, name: 'w1' })).ok);
    await has(`${namespace}/w1 gone`);
    const text = await registry.metrics();
    assert.match(text, /kvstore_operator_is_leader 1/);
    assert.match(text, new RegExp(`kvstore_operator_reconcile_duration_seconds_count\\{namespace="${namespace}",cluster="w1"\\} \\d+`));
  } finally {
    await runner.stop();
  }
});

void test('with leader election only the leader reconciles; the next leader picks up every key', async () => {
  const namespace = fx.namespace();
  for (const n of ['a', 'b', 'c']) assert.ok((await client.create(widget(namespace, n))).ok);
  const calls = { r1: [] as string[], r2: [] as string[] };
  const make = async (id: 'r1' | 'r2') =>
    new ControllerRunner<KubeObject>({
      name: 'widgets',
      primary: (await sources(namespace)).primary,
      timers: systemTimers(),
      election: { kube: client, namespace, name: 'widget-controller', identity: id, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 200 },
      reconcile: (key) => {
        calls[id].push(key);
        return Promise.resolve(Outcome.done);
      },
    });
  const r1 = await make('r1');
  const r2 = await make('r2');
  r1.start();
  r2.start();
  try {
    const leader = await eventually('a leader', () => Promise.resolve(r1.isLeader ? r1 : r2.isLeader ? r2 : undefined));
    const [lid, other, oid] = leader === r1 ? (['r1', r2, 'r2'] as const) : (['r2', r1, 'r1'] as const);
    const keys = ['a', 'b', 'c'].map((n) => `${namespace}/${n}`);
    await eventually('leader reconciled all', () => Promise.resolve(keys.every((k) => calls[lid].includes(k)) ? true : undefined));
    await eventually('standby is ready too', () => Promise.resolve(other.readiness().every((c) => c.check() === undefined) ? true : undefined));
    assert.deepEqual(calls[oid], [], 'the standby does not reconcile');
    await leader.stop();
    await eventually('the standby leads and reconciles every cached key', () => Promise.resolve(keys.every((k) => calls[oid].includes(k)) ? true : undefined), {
      describe: () => JSON.stringify(calls),
    });
  } finally {
    await r1.stop();
    await r2.stop();
  }
});
