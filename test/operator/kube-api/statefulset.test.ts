// The StatefulSet controller and kubelet of the test API server, with a process-free pod runner,
// seen through the real client-node: pods and PVCs from the template, OnDelete recreating a
// deleted pod from the CURRENT template under the same name, status revisions, scale down
// keeping PVCs, RollingUpdate, and garbage collection of the pods with their set.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiException, AppsV1Api, CoreV1Api, PolicyV1Api, type KubeConfig, type V1Pod, type V1StatefulSet } from '@kubernetes/client-node';
import { FakePodRunner } from '../../support/kube-api/fake-pod-runner.js';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';
import { eventually } from '../../support/eventually.js';

let api: KubeApi;
let kc: KubeConfig;
const runner = new FakePodRunner();
const ns = 'default';

before(async () => {
  api = await startKubeApi({ podRunner: runner, probeIntervalMs: 50 });
  kc = api.kubeConfig();
});
after(async () => {
  await api.close();
});

function statefulSet(name: string, image: string, strategy: 'OnDelete' | 'RollingUpdate', replicas = 3): V1StatefulSet {
  return {
    metadata: { name },
    spec: {
      replicas,
      serviceName: `${name}-peers`,
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: strategy },
      template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 7, containers: [{ name: 'kvstore', image, volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    },
  };
}

/** Read-modify-replace of a set, again on 409 (the controller writes status concurrently). */
async function updateSet(apps: AppsV1Api, name: string, change: (s: V1StatefulSet) => void): Promise<void> {
  for (;;) {
    const s = await apps.readNamespacedStatefulSet({ name, namespace: ns });
    change(s);
    try {
      await apps.replaceNamespacedStatefulSet({ name, namespace: ns, body: s });
      return;
    } catch (err) {
      if (!(err instanceof ApiException) || err.code !== 409) throw err;
    }
  }
}

function isReady(p: V1Pod): boolean {
  return p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

async function podsOf(core: CoreV1Api, app: string): Promise<V1Pod[]> {
  return (await core.listNamespacedPod({ namespace: ns, labelSelector: `app=${app}` })).items;
}

void test('OnDelete: pods and PVCs from the template; a deleted pod comes back from the current template with the same name', async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  const created = await apps.createNamespacedStatefulSet({ namespace: ns, body: statefulSet('kv', 'kvstore/kvstore:3.4.0', 'OnDelete') });

  const ready = await eventually('3 ready replicas', async () => {
    const s = await apps.readNamespacedStatefulSet({ name: 'kv', namespace: ns });
    return s.status?.readyReplicas === 3 ? s : undefined;
  });
  assert.equal(ready.status?.currentRevision, ready.status?.updateRevision);
  const pods = await podsOf(core, 'kv');
  assert.deepEqual(pods.map((p) => p.metadata?.name), ['kv-0', 'kv-1', 'kv-2']);
  const p1 = pods[1] as V1Pod;
  assert.deepEqual(p1.metadata?.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]), [['StatefulSet', 'kv', created.metadata?.uid, true]]);
  assert.equal(p1.metadata?.labels?.['controller-revision-hash'], ready.status?.updateRevision);
  assert.equal(p1.metadata?.labels?.['statefulset.kubernetes.io/pod-name'], 'kv-1');
  assert.equal(p1.spec?.hostname, 'kv-1');
  assert.equal(p1.spec?.subdomain, 'kv-peers');
  assert.deepEqual(p1.spec?.volumes?.map((v) => [v.name, v.persistentVolumeClaim?.claimName]), [['data', 'data-kv-1']]);
  assert.equal(p1.status?.phase, 'Running');
  assert.match(p1.status?.podIP ?? '', /^127\./);
  assert.equal(p1.status?.containerStatuses?.[0]?.image, 'kvstore/kvstore:3.4.0');
  const pvcs = await core.listNamespacedPersistentVolumeClaim({ namespace: ns });
  assert.deepEqual(pvcs.items.map((c) => [c.metadata?.name, c.status?.phase]), [['data-kv-0', 'Bound'], ['data-kv-1', 'Bound'], ['data-kv-2', 'Bound']]);

  // A new template changes the update revision only: OnDelete touches no pod.
  await updateSet(apps, 'kv', (s) => (s.spec!.template.spec!.containers[0]!.image = 'kvstore/kvstore:3.5.0'));
  const bumped = await eventually('new update revision', async () => {
    const s = await apps.readNamespacedStatefulSet({ name: 'kv', namespace: ns });
    return s.status?.updateRevision !== ready.status?.updateRevision && s.status?.observedGeneration === 2 ? s : undefined;
  });
  assert.equal(bumped.status?.currentRevision, ready.status?.currentRevision);
  assert.equal(bumped.status?.updatedReplicas, 0);
  assert.deepEqual((await podsOf(core, 'kv')).map((p) => p.metadata?.uid), pods.map((p) => p.metadata?.uid));

  // Deleting a pod: graceful (the runner stops it), then recreated with the new image, same name and claim.
  await core.deleteNamespacedPod({ name: 'kv-1', namespace: ns });
  const back = await eventually('kv-1 recreated and ready', async () => {
    const p = await core.readNamespacedPod({ name: 'kv-1', namespace: ns });
    return p.metadata?.uid !== p1.metadata?.uid && isReady(p) ? p : undefined;
  });
  assert.equal(back.spec?.containers[0]?.image, 'kvstore/kvstore:3.5.0');
  assert.equal(back.status?.containerStatuses?.[0]?.image, 'kvstore/kvstore:3.5.0');
  assert.equal(back.status?.podIP, p1.status?.podIP, 'same name, same address');
  assert.deepEqual(back.spec?.volumes?.map((v) => v.persistentVolumeClaim?.claimName), ['data-kv-1']);
  const kv1 = runner.records.filter((r) => r.pod === 'kv-1').map((r) => `${r.action} ${r.images.join(',')}${r.graceSeconds === undefined ? '' : ` ${r.graceSeconds}s`}`);
  assert.deepEqual(kv1, ['start kvstore/kvstore:3.4.0', 'stop kvstore/kvstore:3.4.0 7s', 'start kvstore/kvstore:3.5.0'], 'stopped with the pod\'s terminationGracePeriodSeconds');
  const mixed = await eventually('status counts the updated pod', async () => {
    const s = await apps.readNamespacedStatefulSet({ name: 'kv', namespace: ns });
    return s.status?.updatedReplicas === 1 && s.status.readyReplicas === 3 ? s : undefined;
  });
  assert.equal(mixed.status?.currentRevision, ready.status?.currentRevision, 'current revision moves only when all pods are updated');

  // Readiness follows the runner's probe.
  runner.setReady('kv-0', false);
  await eventually('kv-0 not ready', async () => (!isReady(await core.readNamespacedPod({ name: 'kv-0', namespace: ns })) ? true : undefined));
  runner.setReady('kv-0', true);

  // Scale down: the highest ordinal goes, its PVC stays.
  await updateSet(apps, 'kv', (s) => (s.spec!.replicas = 2));
  await eventually('kv-2 gone', async () => ((await podsOf(core, 'kv')).length === 2 ? true : undefined));
  assert.deepEqual((await podsOf(core, 'kv')).map((p) => p.metadata?.name), ['kv-0', 'kv-1']);
  assert.ok(await core.readNamespacedPersistentVolumeClaim({ name: 'data-kv-2', namespace: ns }));

  // Deleting the set collects its pods (background cascading); PVCs are retained.
  await apps.deleteNamespacedStatefulSet({ name: 'kv', namespace: ns });
  await eventually('pods collected', async () => ((await podsOf(core, 'kv')).length === 0 ? true : undefined));
  assert.equal((await core.listNamespacedPersistentVolumeClaim({ namespace: ns })).items.length, 3);
});

void test('RollingUpdate replaces pods from the highest ordinal, one at a time; a crashed pod restarts', async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  await apps.createNamespacedStatefulSet({ namespace: ns, body: statefulSet('ru', 'img:1', 'RollingUpdate') });
  await eventually('3 ready', async () => ((await apps.readNamespacedStatefulSet({ name: 'ru', namespace: ns })).status?.readyReplicas === 3 ? true : undefined));

  runner.crash('ru-0', 2);
  const restarted = await eventually('ru-0 restarted', async () => {
    const p = await core.readNamespacedPod({ name: 'ru-0', namespace: ns });
    return p.status?.containerStatuses?.[0]?.restartCount === 1 && isReady(p) ? p : undefined;
  });
  assert.equal(restarted.status?.phase, 'Running');
  assert.equal(restarted.status?.containerStatuses?.[0]?.lastState?.terminated?.exitCode, 2);

  await updateSet(apps, 'ru', (s) => (s.spec!.template.spec!.containers[0]!.image = 'img:2'));
  const done = await eventually('rolled', async () => {
    const st = await apps.readNamespacedStatefulSet({ name: 'ru', namespace: ns });
    return st.status?.updatedReplicas === 3 && st.status.readyReplicas === 3 && st.status.currentRevision === st.status.updateRevision ? st : undefined;
  });
  assert.ok(done);
  const order = runner.records.filter((r) => r.pod.startsWith('ru-') && r.action === 'start' && r.images[0] === 'img:2').map((r) => r.pod);
  assert.deepEqual(order, ['ru-2', 'ru-1', 'ru-0']);
});

void test('PodDisruptionBudget status follows the pods; eviction is refused with 429 when it would break the budget', async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const core = kc.makeApiClient(CoreV1Api);
  const policy = kc.makeApiClient(PolicyV1Api);
  await apps.createNamespacedStatefulSet({ namespace: ns, body: statefulSet('pd', 'img:1', 'OnDelete') });
  await policy.createNamespacedPodDisruptionBudget({ namespace: ns, body: { metadata: { name: 'pd' }, spec: { minAvailable: 2, selector: { matchLabels: { app: 'pd' } } } } });
  const budget = await eventually('budget allows one', async () => {
    const b = await policy.readNamespacedPodDisruptionBudget({ name: 'pd', namespace: ns });
    return b.status?.currentHealthy === 3 ? b : undefined;
  });
  assert.equal(budget.status?.expectedPods, 3);
  assert.equal(budget.status?.desiredHealthy, 2);
  assert.equal(budget.status?.disruptionsAllowed, 1);

  // One pod not ready: no disruption allowed, an eviction is refused.
  runner.setReady('pd-2', false);
  await eventually('budget allows none', async () => ((await policy.readNamespacedPodDisruptionBudget({ name: 'pd', namespace: ns })).status?.disruptionsAllowed === 0 ? true : undefined));
  let refused: unknown;
  try {
    await core.createNamespacedPodEviction({ name: 'pd-0', namespace: ns, body: { metadata: { name: 'pd-0', namespace: ns } } });
  } catch (err) {
    refused = err;
  }
  assert.ok(refused instanceof ApiException);
  assert.equal(refused.code, 429);
  const body = JSON.parse(refused.body as string) as { reason: string; message: string };
  assert.equal(body.reason, 'TooManyRequests');
  assert.equal(body.message, "Cannot evict pod as it would violate the pod's disruption budget.");

  // Ready again: the eviction passes and the pod is deleted (and recreated by its set).
  runner.setReady('pd-2', true);
  await eventually('budget allows one', async () => ((await policy.readNamespacedPodDisruptionBudget({ name: 'pd', namespace: ns })).status?.disruptionsAllowed === 1 ? true : undefined));
  const first = await core.readNamespacedPod({ name: 'pd-0', namespace: ns });
  await core.createNamespacedPodEviction({ name: 'pd-0', namespace: ns, body: { metadata: { name: 'pd-0', namespace: ns } } });
  await eventually('pd-0 back, budget allows one again', async () => {
    const p = await core.readNamespacedPod({ name: 'pd-0', namespace: ns });
    const b = await policy.readNamespacedPodDisruptionBudget({ name: 'pd', namespace: ns });
    return p.metadata?.uid !== first.metadata?.uid && isReady(p) && b.status?.disruptionsAllowed === 1 ? true : undefined;
  });
});
