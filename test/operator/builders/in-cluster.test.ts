// The builders against the in-process Kubernetes API server (test/support/kube-api) with the
// kvstore pod runner (each pod a real kvstore member on its own 127.x address): the CRD's
// defaults are withDefaults(); the owned objects are accepted; the StatefulSet's pods form one
// 3-member cluster that serves writes; a template built for 3.5.0 plus the deletion of one pod
// (OnDelete) brings that member back on 3.5.0 with its name and data; deleting the
// KvstoreCluster garbage-collects what it owns.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiextensionsV1Api, AppsV1Api, CoreV1Api, CustomObjectsApi, PolicyV1Api, type KubeConfig, type V1StatefulSet } from '@kubernetes/client-node';
import { clusterCrd } from '../../../operator/api/crd.js';
import { withDefaults } from '../../../operator/api/defaults.js';
import type { KvstoreCluster, KvstoreClusterInput } from '../../../operator/api/types.js';
import { buildOwnedObjects } from '../../../operator/controller/builders/owned-objects.js';
import { buildStatefulSet } from '../../../operator/controller/builders/stateful-set.js';
import { KvstorePodRunner } from '../../support/kube-api/kvstore-pod-runner.js';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';
import { etcdctl, eventually } from '../../support/processes.js';
import { getJson } from '../../support/member-http.js';

let api: KubeApi;
let kc: KubeConfig;
let runner: KvstorePodRunner;
const ns = 'default';
const BOUND = 60_000;
const PODS = ['demo-0', 'demo-1', 'demo-2'];
const target = { group: 'kvstore.io', version: 'v1alpha1', namespace: ns, plural: 'kvstoreclusters' };

// Pod volumes live under the build directory, not under /tmp: the pod runner substitutes mount
// paths one after the other, so the pod's `/tmp` emptyDir mount would also rewrite a host path
// that itself starts with /tmp (the data dir would then change with every pod).
const rootDir = mkdtempSync(join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..'), '.kube-pods-'));

before(async () => {
  runner = new KvstorePodRunner({ rootDir });
  api = await startKubeApi({ podRunner: runner, probeIntervalMs: 200 });
  kc = api.kubeConfig();
});
after(async () => {
  await api.close();
  rmSync(rootDir, { recursive: true, force: true });
});

void test('builders in a (test) Kubernetes: defaults, owned objects, a working 3-member cluster, OnDelete upgrade of one member, cascade', { timeout: 4 * BOUND }, async () => {
  const ext = kc.makeApiClient(ApiextensionsV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const core = kc.makeApiClient(CoreV1Api);
  const apps = kc.makeApiClient(AppsV1Api);
  const policy = kc.makeApiClient(PolicyV1Api);

  // Raw JSON: client-node's typed models would drop `default`, `enum` and the x-kubernetes-* keys
  // (they expect `_default`, `_enum`, `x_kubernetes_…`), as kubectl would not.
  const posted = await fetch(`${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(clusterCrd()),
  });
  assert.equal(posted.status, 201, await posted.text());
  const established = await ext.readCustomResourceDefinition({ name: 'kvstoreclusters.kvstore.io' });
  assert.ok(established.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'));
  const manifest = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo' }, spec: { version: '3.4.0' } } as const;
  const created = (await custom.createNamespacedCustomObject({ ...target, body: manifest })) as KvstoreCluster;
  assert.deepEqual(created.spec, withDefaults(manifest as KvstoreClusterInput).spec, 'the CRD defaults are withDefaults()');
  const cluster = withDefaults(created as KvstoreClusterInput);
  assert.ok(cluster.metadata.uid);

  for (const o of buildOwnedObjects(cluster, { members: 3, version: '3.4.0' })) {
    if (o.kind === 'Service') await core.createNamespacedService({ namespace: ns, body: o as never });
    else if (o.kind === 'StatefulSet') await apps.createNamespacedStatefulSet({ namespace: ns, body: o as never });
    else await policy.createNamespacedPodDisruptionBudget({ namespace: ns, body: o as never });
  }
  const describe = (): string => PODS.map((p) => `${p}:\n${runner.logs(p).split('\n').slice(-8).join('\n')}`).join('\n');
  await eventually('3 ready members', async () => {
    const s = await apps.readNamespacedStatefulSet({ name: 'demo', namespace: ns });
    return s.status?.readyReplicas === 3 ? true : undefined;
  }, { timeoutMs: BOUND, describe });

  const endpoints = await Promise.all(PODS.map(async (p) => new URL(await runner.urlOf(p, 2379)).host));
  const put = await etcdctl(endpoints[0] ?? '', ['put', 'greeting', 'hello']);
  assert.equal(put.code, 0, put.stderr);
  const members = await etcdctl(endpoints[2] ?? '', ['member', 'list', '-w', 'json']);
  const list = JSON.parse(members.stdout) as { members: { name: string; clientURLs: string[] }[] };
  assert.deepEqual(list.members.map((m) => m.name).sort(), PODS, 'one cluster of the three pods, named after them');
  const client1 = await runner.urlOf('demo-1', 2379);
  assert.equal((await getJson(`${client1}/version`)).etcdserver, '3.4.0');

  // The operator's upgrade step for one member: template on 3.5.0, delete the pod.
  const current = await apps.readNamespacedStatefulSet({ name: 'demo', namespace: ns });
  const next = buildStatefulSet(cluster, { members: 3, version: '3.5.0' }) as unknown as V1StatefulSet;
  await apps.replaceNamespacedStatefulSet({ name: 'demo', namespace: ns, body: { ...current, spec: { ...current.spec!, template: next.spec!.template } } });
  const before1 = await core.readNamespacedPod({ name: 'demo-1', namespace: ns });
  await core.deleteNamespacedPod({ name: 'demo-1', namespace: ns });
  await eventually('demo-1 back and ready on 3.5.0', async () => {
    const p = await core.readNamespacedPod({ name: 'demo-1', namespace: ns });
    const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    return p.metadata?.uid !== before1.metadata?.uid && ready === true ? p : undefined;
  }, { timeoutMs: BOUND, describe });
  assert.equal((await getJson(`${client1}/version`)).etcdserver, '3.5.0');
  const got = await etcdctl(endpoints[1] ?? '', ['get', 'greeting', '--print-value-only', '--consistency=s']);
  assert.equal(got.stdout.trim(), 'hello', `the member kept its data directory\n${runner.logs('demo-1')}`);
  const demo0 = await core.readNamespacedPod({ name: 'demo-0', namespace: ns });
  assert.equal(demo0.metadata?.labels?.['app.kubernetes.io/version'], '3.4.0', 'OnDelete: the other members were not touched');

  // Deleting the cluster removes what it owns (controller owner references).
  await custom.deleteNamespacedCustomObject({ ...target, name: 'demo' });
  await eventually('owned objects garbage-collected', async () => {
    const [svcs, sets, pdbs] = await Promise.all([
      core.listNamespacedService({ namespace: ns, labelSelector: 'app.kubernetes.io/instance=demo' }),
      apps.listNamespacedStatefulSet({ namespace: ns }),
      policy.listNamespacedPodDisruptionBudget({ namespace: ns }),
    ]);
    return svcs.items.length + sets.items.length + pdbs.items.length === 0 ? true : undefined;
  }, { timeoutMs: BOUND });
});
