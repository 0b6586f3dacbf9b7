// The operator on Kubernetes (in-process, against the test API server with real kvstore pods):
// a 3-member 3.4.0 KvstoreCluster becomes Running with the finalizer, the owned objects (owner
// references, OnDelete StatefulSet, PDB) and a status whose members, conditions and printer
// fields are right; the health server answers; a spec only the operator's validation refuses is
// reported (InvalidSpec) and not acted on; deleting the cluster removes the finalizer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../../support/eventually.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 90_000;
const PODS = ['demo-0', 'demo-1', 'demo-2'];
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

void test('a 3-member 3.4.0 cluster is created and reported Running', { timeout: 3 * BOUND }, async () => {
  const op = await fx.startOperator();
  await fx.createCluster('demo', { size: 3, version: '3.4.0' });
  const running = await eventually('phase Running', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.phase === 'Running' && c.status.clusterVersion === '3.4.0' ? c : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
  const s = running.status;
  assert.ok(s !== undefined);
  assert.deepEqual(running.metadata.finalizers, ['kvstore.io/snapshots']);
  assert.equal(s.readyMembers, '3/3');
  assert.equal(s.observedGeneration, running.metadata.generation);
  assert.deepEqual(s.members.map((m) => m.name), PODS);
  assert.ok(s.members.every((m) => m.healthy && m.version === '3.4.0' && /^[0-9a-f]{16}$/.test(m.id)), JSON.stringify(s.members));
  assert.equal(s.members.filter((m) => m.leader).length, 1, 'exactly one leader');
  assert.deepEqual(s.members.map((m) => m.clientURL), PODS.map((p) => `http://${p}.demo-peer.${NS}.svc:2379`));
  assert.equal(condition(s, 'Available')?.status, 'True');
  assert.equal(condition(s, 'Degraded')?.status, 'False');
  assert.equal(condition(s, 'Upgrading')?.status ?? 'False', 'False');
  const reasons = (await fx.eventsWith('demo', 'ClusterCreated')).map((e) => e.reason);
  assert.ok(reasons.includes('ClusterCreating') && reasons.includes('ClusterCreated'), reasons.join(','));

  // Owned objects.
  const get = async (path: string): Promise<{ metadata: { ownerReferences?: { kind: string; name: string; controller?: boolean }[] }; spec: Record<string, unknown> }> =>
    (await fetch(`${fx.api.url}${path}`)).json() as never;
  const sts = await get(`/apis/apps/v1/namespaces/${NS}/statefulsets/demo`);
  assert.deepEqual(sts.spec.updateStrategy, { type: 'OnDelete' });
  assert.equal(sts.spec.replicas, 3);
  for (const path of [`/apis/apps/v1/namespaces/${NS}/statefulsets/demo`, `/api/v1/namespaces/${NS}/services/demo-peer`, `/api/v1/namespaces/${NS}/services/demo-client`, `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets/demo`]) {
    const o = await get(path);
    assert.deepEqual(o.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]), [['KvstoreCluster', 'demo', true]], path);
  }

  // Health server.
  assert.ok(op.healthURL !== undefined);
  assert.equal((await fetch(`${op.healthURL}/healthz`)).status, 200);
  assert.equal((await fetch(`${op.healthURL}/readyz`)).status, 200);
  const metrics = await (await fetch(`${op.healthURL}/metrics`)).text();
  assert.match(metrics, /kvstore_operator_is_leader 1/);
  assert.match(metrics, /kvstore_operator_reconcile_duration_seconds_count\{namespace="default",cluster="demo"\} [1-9]/);

  // Settled: no pass triggers another (no writes of our own when nothing changed).
  const passes = async (): Promise<number> => Number(/kvstore_operator_reconcile_duration_seconds_count\{namespace="default",cluster="demo"\} (\d+)/.exec(await op.registry.metrics())?.[1]);
  await eventually('settled', async () => {
    const before = await passes();
    await new Promise((r) => setTimeout(r, 3000));
    return (await passes()) - before <= 1 ? true : undefined;
  }, { timeoutMs: 30_000, describe: () => 'passes keep coming: a pass triggers the next one' });

  // A spec the API server's schema accepts but the operator's validation does not: reported, not reconciled.
  await fx.createCluster('bad', { size: 3, version: '3.2.0', options: { enableV2: true } });
  const invalid = await eventually('InvalidSpec event', async () => (await fx.events('bad')).find((e) => e.reason === 'InvalidSpec'));
  assert.equal(invalid.type, 'Warning');
  assert.match(invalid.message, /enableV2/);
  assert.equal((await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/bad`)).status, 404, 'nothing created for it');

  // Deletion: the finalizer goes, the cluster goes.
  const del = await fetch(`${fx.api.url}/apis/kvstore.io/v1alpha1/namespaces/${NS}/kvstoreclusters/demo`, { method: 'DELETE' });
  assert.ok(del.ok, await del.text());
  await eventually('cluster gone', async () => ((await fx.getCluster('demo')) === undefined ? true : undefined), { timeoutMs: BOUND });
});
