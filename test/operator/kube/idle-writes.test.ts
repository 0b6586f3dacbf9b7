// An idle cluster costs no API write (issue 31): the operator's controller against the
// in-process API server (pods without processes, members answered by steadyMembers) creates a
// 3-member cluster and brings it to Running; then a minute of operator time passes on its virtual
// clock, a pass every 5 s (≥ 12 passes), and the API server hears no create, update, patch or
// delete from it — reads only. The operator's own kvstore_operator_api_requests_total agrees.
// The API server, like the real one, hands the custom resource back with its keys sorted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { clusterCrd } from '../../../operator/api/crd.js';
import type { KvstoreClusterStatus } from '../../../operator/api/types.js';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { EngineLogger, ReconcileFn } from '../../../operator/controller/ports.js';
import { KubeController } from '../../../operator/runtime/kube-controller/controller.js';
import { ClientNodeKubeClient } from '../../../operator/runtime/kube/client-node-client.js';
import { CountingKubeClient } from '../../../operator/runtime/kube/counting-client.js';
import { createOperatorMetrics } from '../../../operator/runtime/metrics.js';
import { isWrite, type AuditRecord } from '../../support/kube-api/audit.js';
import { FakePodRunner } from '../../support/kube-api/fake-pod-runner.js';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';
import { FakeSnapshots } from '../engine/fakes.js';
import { ManualTimers } from '../runtime/manual-timers.js';
import { steadyMembers } from './steady-members.js';

const NS = 'default';
const PASS_SECONDS = 5;
const WINDOW_SECONDS = 65;
const audit: AuditRecord[] = [];
let api: KubeApi;

const quiet: EngineLogger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

before(async () => {
  api = await startKubeApi({ podRunner: new FakePodRunner(), probeIntervalMs: 100, audit: (r) => audit.push(r) });
  const crd = await fetch(`${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(clusterCrd()) });
  assert.equal(crd.status, 201, await crd.text());
});
after(async () => {
  await api.close();
});

async function statusOf(name: string): Promise<KvstoreClusterStatus | undefined> {
  const res = await fetch(`${api.url}/apis/kvstore.io/v1alpha1/namespaces/${NS}/kvstoreclusters/${name}`);
  return ((await res.json()) as { status?: KvstoreClusterStatus }).status;
}

/** The operator's counter of API requests by `demo`'s passes, summed over `verbs`. */
async function counted(registry: Registry, verbs: readonly string[]): Promise<number> {
  const text = await registry.metrics();
  const line = /^kvstore_operator_api_requests_total\{namespace="default",cluster="demo",verb="(\w+)",resource="[^"]*"\} (\d+)$/gm;
  return [...text.matchAll(line)].filter((m) => verbs.includes(m[1] ?? '')).reduce((n, m) => n + Number(m[2]), 0);
}

void test('an idle cluster: a minute of passes every 5 s makes no API write', { timeout: 120_000 }, async () => {
  const timers = new ManualTimers();
  const registry = new Registry();
  const series = createOperatorMetrics(registry);
  let passes = 0;
  const metrics = { ...series, reconcileDuration: (c: string, s: number) => ((passes += 1), series.reconcileDuration(c, s)) };
  // The steady state asks for a pass every 30 s; every 5 s here, so a minute holds 12 of them.
  const everyFewSeconds: ReconcileFn = (c, o) => ({ ...reconcile(c, o), requeueAfterSeconds: PASS_SECONDS });
  const kc = api.kubeConfig();
  const kube = new ClientNodeKubeClient(kc);
  const controller = new KubeController({
    kubeConfig: kc,
    kube,
    requests: new CountingKubeClient(kube, (r) => metrics.apiRequest(r.cluster, r.verb, r.resource)),
    namespace: NS,
    admin: steadyMembers('demo', NS, 3, '3.4.0'),
    snapshots: new FakeSnapshots(),
    reconcile: everyFewSeconds,
    logger: quiet,
    timers,
    metrics,
  });
  const started = await controller.start();
  assert.ok(started.ok);
  try {
    const created = await fetch(`${api.url}/apis/kvstore.io/v1alpha1/namespaces/${NS}/kvstoreclusters`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: NS }, spec: { size: 3, version: '3.4.0' } }),
    });
    assert.equal(created.status, 201, await created.text());

    /** Moves the operator's clock one pass interval on and waits (real time) for that pass to end. */
    const onePass = async (): Promise<void> => {
      const before = passes;
      await timers.advance(PASS_SECONDS * 1000);
      for (let waited = 0; passes === before; waited += 10) {
        assert.ok(waited < 10_000, 'no pass ended within 10 s');
        await sleep(10);
      }
    };
    let status: KvstoreClusterStatus | undefined;
    for (let i = 0; i < 60 && status?.phase !== 'Running'; i++) {
      await onePass();
      status = await statusOf('demo');
    }
    assert.equal(status?.phase, 'Running', JSON.stringify(status));
    for (let i = 0; i < 3; i++) await onePass(); // settled: ClusterCreated recorded, claims noted

    const writesBefore = audit.filter((r) => isWrite(r.verb)).length;
    const countedBefore = { writes: await counted(registry, ['create', 'update', 'patch', 'delete']), reads: await counted(registry, ['get', 'list']) };
    const passesBefore = passes;
    const statusBefore = JSON.stringify(await statusOf('demo'));
    for (let t = 0; t < WINDOW_SECONDS; t += PASS_SECONDS) await onePass();

    const writes = audit.filter((r) => isWrite(r.verb)).slice(writesBefore);
    assert.ok(passes - passesBefore >= 12, `${passes - passesBefore} passes in ${WINDOW_SECONDS} s of operator time`);
    assert.deepEqual(writes.map((r) => `${r.verb} ${r.resource}${r.subresource === undefined ? '' : `/${r.subresource}`} ${r.name ?? ''}`), [], 'API writes while idle');
    assert.equal(JSON.stringify(await statusOf('demo')), statusBefore, 'the status did not change');
    assert.equal(await counted(registry, ['create', 'update', 'patch', 'delete']), countedBefore.writes, 'the operator counted no write of its own');
    assert.ok((await counted(registry, ['get', 'list'])) > countedBefore.reads, 'the operator counted its reads');
  } finally {
    await controller.stop();
  }
});
