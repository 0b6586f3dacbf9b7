// The Kubernetes MemberPlatform against the in-memory KubeClient: owned objects created with the
// owner reference, a second ensure writes nothing, the template version and initial cluster
// state follow the calls, a restart deletes the pod, a reset deletes its claim and pod, and an
// API server that does not answer fails the observation at its bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../../operator/api/defaults.js';
import { storedTemplate, KubePlatform } from '../../../operator/runtime/kube-platform/kube-platform.js';
import { MemoryKubeClient } from '../../../operator/runtime/kube/memory-client.js';
import type { KubeClient, KubeObject } from '../../../operator/runtime/kube/types.js';

const cluster = withDefaults({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'demo', namespace: 'ns', uid: 'u-1' }, spec: { version: '3.4.0' } });
const ref = (kind: string, name: string, apiVersion = 'v1') => ({ apiVersion, kind, namespace: 'ns', name });
const stsRef = ref('StatefulSet', 'demo', 'apps/v1');

void test('ensureObjects creates once; a second ensure writes nothing; scale-up joins as existing', async () => {
  const kube = new MemoryKubeClient();
  const platform = new KubePlatform(kube);
  const none = await platform.observe(cluster, new AbortController().signal);
  assert.ok(none.ok);
  assert.deepEqual(none.value, { objectsExist: false, templateVersion: '', replicas: 0, slots: [] });

  assert.deepEqual(await platform.ensureObjects(cluster, '3.4.0', 3), { ok: true, value: undefined });
  for (const r of [ref('Service', 'demo-peer'), ref('Service', 'demo-client'), stsRef, ref('PodDisruptionBudget', 'demo', 'policy/v1')]) {
    const got = await kube.get<KubeObject>(r);
    assert.ok(got.ok, r.kind);
    assert.deepEqual(got.value.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid]), [['KvstoreCluster', 'demo', 'u-1']]);
  }
  const first = await kube.get<KubeObject>(stsRef);
  assert.ok(first.ok);
  await platform.ensureObjects(cluster, '3.4.0', 3);
  const again = await kube.get<KubeObject>(stsRef);
  assert.ok(again.ok);
  assert.equal(again.value.metadata.resourceVersion, first.value.metadata.resourceVersion, 'nothing written');
  assert.deepEqual(storedTemplate(again.value as never), { members: 3, version: '3.4.0', initialClusterState: 'new' });

  await platform.ensureObjects(cluster, '3.4.0', 4);
  const grown = await kube.get<KubeObject>(stsRef);
  assert.ok(grown.ok);
  assert.deepEqual(storedTemplate(grown.value as never), { members: 4, version: '3.4.0', initialClusterState: 'existing' });

  await platform.setTemplateVersion(cluster, '3.5.0');
  const view = await platform.observe(cluster, new AbortController().signal);
  assert.ok(view.ok);
  assert.equal(view.value.templateVersion, '3.5.0');
  assert.equal(view.value.replicas, 4);
  assert.equal(view.value.slots.length, 4);
  assert.ok(view.value.slots.every((s) => !s.exists), 'no pods in the memory client');
});

void test('restart deletes the pod; reset deletes the claim and the pod', async () => {
  const kube = new MemoryKubeClient();
  const platform = new KubePlatform(kube);
  await platform.ensureObjects(cluster, '3.4.0', 3);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'demo-1', namespace: 'ns', labels: { 'app.kubernetes.io/name': 'kvstore', 'app.kubernetes.io/instance': 'demo' } }, spec: { containers: [{ name: 'kvstore', image: 'kvstore/kvstore:3.4.0' }] }, status: { phase: 'Running' } };
  await kube.create(pod);
  const seen = await platform.observe(cluster, new AbortController().signal);
  assert.ok(seen.ok);
  assert.deepEqual(seen.value.slots.map((s) => [s.name, s.exists, s.running, s.runVersion]), [['demo-0', false, false, ''], ['demo-1', true, true, '3.4.0'], ['demo-2', false, false, '']]);
  assert.ok((await platform.restartMember(cluster, 'demo-1')).ok);
  assert.equal((await kube.get(ref('Pod', 'demo-1'))).ok, false);
  assert.ok((await platform.restartMember(cluster, 'demo-1')).ok, 'a pod already gone is fine');

  await kube.create(pod);
  await kube.create({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-demo-1', namespace: 'ns' } });
  assert.ok((await platform.resetMember(cluster, 'demo-1')).ok);
  assert.equal((await kube.get(ref('PersistentVolumeClaim', 'data-demo-1'))).ok, false);
  assert.equal((await kube.get(ref('Pod', 'demo-1'))).ok, false);
  const sts = await kube.get<KubeObject>(stsRef);
  assert.ok(sts.ok);
  assert.equal(storedTemplate(sts.value as never).initialClusterState, 'existing');
});

void test('an API server that does not answer fails the observation when its bound aborts', async () => {
  const hanging = new Proxy({}, { get: () => () => new Promise(() => undefined) }) as KubeClient;
  const bound = new AbortController();
  const pending = new KubePlatform(hanging).observe(cluster, bound.signal);
  bound.abort();
  const r = await pending;
  assert.equal(r.ok, false);
});
