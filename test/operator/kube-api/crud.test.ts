// The test API server against the real @kubernetes/client-node: create/get/list/replace/patch,
// 409 on stale writes and on existing names, the status subresource, finalizers, owner-reference
// garbage collection, custom resources from a CRD (with schema defaults) and discovery.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ApiException, AppsV1Api, CoordinationV1Api, CoreV1Api, CustomObjectsApi, ApiextensionsV1Api, EventsV1Api, KubeConfig as KubeConfigClass, KubernetesObjectApi,
  PatchStrategy, setHeaderOptions, type KubeConfig, type V1ConfigMap,
} from '@kubernetes/client-node';
import { startKubeApi, type KubeApi } from '../../support/kube-api/server.js';
import { eventually } from '../../support/eventually.js';
import { makeTempDir } from '../../support/registry.js';
import { join } from 'node:path';

let api: KubeApi;
let kc: KubeConfig;
const ns = 'default';

before(async () => {
  api = await startKubeApi();
  kc = api.kubeConfig();
});
after(async () => {
  await api.close();
});

/** The HTTP code and Kubernetes Status body of a failed call. */
async function failure(p: Promise<unknown>): Promise<{ code: number; body: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiException) {
      const body = (typeof err.body === 'string' ? JSON.parse(err.body) : err.body) as Record<string, unknown>;
      return { code: err.code, body };
    }
    throw err;
  }
  assert.fail('the call succeeded');
}

void test('create fills metadata; get and list with selectors; resourceVersion in list metadata', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const cm = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'one', labels: { app: 'a', tier: 'x' } }, data: { k: 'v' } } });
  assert.equal(cm.metadata?.name, 'one');
  assert.equal(cm.metadata?.namespace, ns);
  assert.match(cm.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
  assert.match(cm.metadata?.resourceVersion ?? '', /^\d+$/);
  assert.equal(cm.metadata?.generation, 1);
  assert.ok(cm.metadata?.creationTimestamp instanceof Date);
  const gen = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { generateName: 'gen-', labels: { app: 'b' } } } });
  assert.match(gen.metadata?.name ?? '', /^gen-[a-z0-9]{5}$/);

  const got = await core.readNamespacedConfigMap({ name: 'one', namespace: ns });
  assert.deepEqual(got.data, { k: 'v' });
  const byLabel = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app in (a,c),tier' });
  assert.deepEqual(byLabel.items.map((i) => i.metadata?.name), ['one']);
  const notA = await core.listNamespacedConfigMap({ namespace: ns, labelSelector: 'app!=a' });
  assert.deepEqual(notA.items.map((i) => i.metadata?.name), [gen.metadata?.name]);
  const byName = await core.listNamespacedConfigMap({ namespace: ns, fieldSelector: 'metadata.name=one' });
  assert.equal(byName.items.length, 1);
  assert.match(byName.metadata?.resourceVersion ?? '', /^\d+$/);
  assert.ok(BigInt(byName.metadata?.resourceVersion ?? '0') >= BigInt(gen.metadata?.resourceVersion ?? '0'));
  const all = await core.listConfigMapForAllNamespaces();
  assert.equal(all.items.length, 2);
});

void test('errors are Kubernetes Status objects: 404, 409 AlreadyExists, 422 Invalid', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const missing = await failure(core.readNamespacedConfigMap({ name: 'nope', namespace: ns }));
  assert.equal(missing.code, 404);
  assert.deepEqual(missing.body, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nope" not found',
    reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404,
  });
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'dup' } } });
  const dup = await failure(core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'dup' } } }));
  assert.equal(dup.code, 409);
  assert.equal(dup.body.reason, 'AlreadyExists');
  assert.equal(dup.body.message, 'configmaps "dup" already exists');
  const apps = kc.makeApiClient(AppsV1Api);
  const noName = await failure(apps.createNamespacedStatefulSet({ namespace: ns, body: { metadata: {}, spec: { selector: {}, serviceName: 's', template: {} } } }));
  assert.equal(noName.code, 422);
  assert.equal(noName.body.reason, 'Invalid');
  assert.deepEqual((noName.body.details as { causes: unknown[] }).causes, [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]);
});

void test('replace with a stale resourceVersion is a 409 Conflict; generation follows spec changes only; StatefulSet validation', async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const body = {
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: { replicas: 0, serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'img:1' }] } } },
  };
  await apps.createNamespacedStatefulSet({ namespace: ns, body });
  // The StatefulSet controller writes status right after the create: read what it left.
  const v1 = await eventually('status observed', async () => {
    const s = await apps.readNamespacedStatefulSet({ name: 'web', namespace: ns });
    return s.status?.observedGeneration === 1 ? s : undefined;
  });
  const v2 = await apps.replaceNamespacedStatefulSet({ name: 'web', namespace: ns, body: { ...v1, metadata: { ...v1.metadata, labels: { app: 'web', x: 'y' } } } });
  assert.equal(v2.metadata?.generation, 1, 'a label change does not bump generation');
  assert.ok(BigInt(v2.metadata?.resourceVersion ?? '0') > BigInt(v1.metadata?.resourceVersion ?? '0'));
  const stale = await failure(apps.replaceNamespacedStatefulSet({ name: 'web', namespace: ns, body: v1 }));
  assert.equal(stale.code, 409);
  assert.equal(stale.body.reason, 'Conflict');
  assert.equal(stale.body.message, 'Operation cannot be fulfilled on statefulsets.apps "web": the object has been modified; please apply your changes to the latest version and try again');
  assert.deepEqual(stale.body.details, { name: 'web', group: 'apps', kind: 'statefulsets' });
  const v3 = await apps.replaceNamespacedStatefulSet({ name: 'web', namespace: ns, body: { ...v2, spec: { ...v2.spec!, replicas: 0, minReadySeconds: 5 } } });
  assert.equal(v3.metadata?.generation, 2);

  // The API server's StatefulSet rules: immutable spec fields, selector matching the template.
  // (No resourceVersion: an unconditional replace; the controller may have written status since.)
  const forbidden = await failure(apps.replaceNamespacedStatefulSet({ name: 'web', namespace: ns, body: { ...v3, metadata: { ...v3.metadata, resourceVersion: undefined }, spec: { ...v3.spec!, serviceName: 'other' } } }));
  assert.equal(forbidden.code, 422);
  assert.equal(forbidden.body.message, "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
  const mismatch = await failure(apps.createNamespacedStatefulSet({ namespace: ns, body: { ...body, metadata: { name: 'web2' }, spec: { ...body.spec, selector: { matchLabels: { app: 'other' } } } } }));
  assert.equal(mismatch.code, 422);
  assert.deepEqual((mismatch.body.details as { causes: { field: string }[] }).causes.map((c) => c.field), ['spec.template.metadata.labels']);
});

void test('patches: merge, strategic (as merge), JSON patch; a patch naming a stale resourceVersion conflicts', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'p' }, data: { a: '1', b: '2' } } });
  const merged = await core.patchNamespacedConfigMap({ name: 'p', namespace: ns, body: { data: { a: null, c: '3' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  assert.deepEqual(merged.data, { b: '2', c: '3' });
  const strategic = await core.patchNamespacedConfigMap({ name: 'p', namespace: ns, body: { metadata: { labels: { l: 'v' } } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch));
  assert.deepEqual(strategic.metadata?.labels, { l: 'v' });
  const jp = await core.patchNamespacedConfigMap({ name: 'p', namespace: ns, body: [{ op: 'replace', path: '/data/b', value: '20' }, { op: 'add', path: '/data/d', value: '4' }] });
  assert.deepEqual(jp.data, { b: '20', c: '3', d: '4' });
  const failedTest = await failure(core.patchNamespacedConfigMap({ name: 'p', namespace: ns, body: [{ op: 'test', path: '/data/b', value: 'no' }] }));
  assert.equal(failedTest.code, 422);
  const stale = await failure(core.patchNamespacedConfigMap({ name: 'p', namespace: ns, body: { metadata: { resourceVersion: merged.metadata?.resourceVersion }, data: { e: '5' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));
  assert.equal(stale.code, 409);
});

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'kvstoreclusters.kvstore.io' },
  spec: {
    group: 'kvstore.io',
    scope: 'Namespaced',
    names: { plural: 'kvstoreclusters', singular: 'kvstorecluster', kind: 'KvstoreCluster', listKind: 'KvstoreClusterList', shortNames: ['kvc'] },
    versions: [{
      name: 'v1alpha1', served: true, storage: true, subresources: { status: {} },
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              required: ['version'],
              properties: {
                size: { type: 'integer', _default: 3, _enum: [1, 3, 5, 7] },
                version: { type: 'string', pattern: '^3\\.[2-5]\\.\\d+$' },
                upgrade: { type: 'object', _default: {}, properties: { v2WaitSeconds: { type: 'integer', _default: 120, minimum: 0 } } },
                storage: { type: 'object', properties: { size: { type: 'string' } }, x_kubernetes_validations: [{ rule: 'self == oldSelf', message: 'is immutable' }] },
              },
            },
            status: { type: 'object', x_kubernetes_preserve_unknown_fields: true },
          },
        },
      },
    }],
  },
};

void test('custom resources: CRD established, defaults applied, schema validation and pruning, status subresource separate from main writes, discovery', async () => {
  const ext = kc.makeApiClient(ApiextensionsV1Api);
  await ext.createCustomResourceDefinition({ body: crd as never });
  const established = await ext.readCustomResourceDefinition({ name: 'kvstoreclusters.kvstore.io' });
  assert.ok(established.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True'));

  const custom = kc.makeApiClient(CustomObjectsApi);
  const target = { group: 'kvstore.io', version: 'v1alpha1', namespace: ns, plural: 'kvstoreclusters' };
  const created = (await custom.createNamespacedCustomObject({ ...target, body: { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'c1' }, spec: { version: '3.4.0' }, status: { phase: 'ignored' } } })) as { metadata: { resourceVersion: string; generation: number }; spec: unknown; status?: unknown };
  assert.deepEqual(created.spec, { version: '3.4.0', size: 3, upgrade: { v2WaitSeconds: 120 } });
  assert.equal(created.status, undefined, 'status is not written on create');

  const withStatus = (await custom.patchNamespacedCustomObjectStatus({ ...target, name: 'c1', body: { status: { phase: 'Creating' }, spec: { size: 5 } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch))) as { spec: { size: number }; status: { phase: string }; metadata: { generation: number } };
  assert.equal(withStatus.status.phase, 'Creating');
  assert.equal(withStatus.spec.size, 3, 'a status write does not change spec');
  assert.equal(withStatus.metadata.generation, 1);

  const replaced = (await custom.replaceNamespacedCustomObject({ ...target, name: 'c1', body: { ...withStatus, spec: { ...withStatus.spec, version: '3.5.0' }, status: { phase: 'lost' } } })) as { status: { phase: string }; metadata: { generation: number } };
  assert.equal(replaced.status.phase, 'Creating', 'a main write does not change status');
  assert.equal(replaced.metadata.generation, 2);

  const replacedStatus = (await custom.replaceNamespacedCustomObjectStatus({ ...target, name: 'c1', body: { ...replaced, status: { phase: 'Upgrading' } } })) as { status: { phase: string } };
  assert.equal(replacedStatus.status.phase, 'Upgrading');
  const staleStatus = await failure(custom.replaceNamespacedCustomObjectStatus({ ...target, name: 'c1', body: { ...replaced, status: { phase: 'x' } } }));
  assert.equal(staleStatus.code, 409);

  // Schema validation with the API server's messages; undeclared fields are pruned; CEL immutability.
  const kvc = (name: string, spec: Record<string, unknown>): Record<string, unknown> => ({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name }, spec });
  const badSize = await failure(custom.createNamespacedCustomObject({ ...target, body: kvc('bad', { version: '3.4.0', size: 4 }) }));
  assert.equal(badSize.code, 422);
  assert.equal(badSize.body.message, 'KvstoreCluster.kvstore.io "bad" is invalid: spec.size: Unsupported value: 4: supported values: "1", "3", "5", "7"');
  const noVersion = await failure(custom.createNamespacedCustomObject({ ...target, body: kvc('bad', { upgrade: { v2WaitSeconds: -1 } }) }));
  assert.deepEqual((noVersion.body.details as { causes: { field: string; reason: string }[] }).causes.map((c) => [c.field, c.reason]).sort(), [['spec.upgrade.v2WaitSeconds', 'FieldValueInvalid'], ['spec.version', 'FieldValueRequired']]);
  const badVersion = await failure(custom.createNamespacedCustomObject({ ...target, body: kvc('bad', { version: '4.0.0' }) }));
  assert.equal(badVersion.body.message, 'KvstoreCluster.kvstore.io "bad" is invalid: spec.version: Invalid value: "4.0.0": spec.version in body should match \'^3\\.[2-5]\\.\\d+$\'');
  const pruned = (await custom.createNamespacedCustomObject({ ...target, body: { ...kvc('c2', { version: '3.5.0', unknownField: 1, storage: { size: '1Gi' } }), extra: true } })) as Record<string, unknown> & { spec: Record<string, unknown> };
  assert.equal(pruned.spec.unknownField, undefined);
  assert.equal(pruned.extra, undefined);
  const immutable = await failure(custom.patchNamespacedCustomObject({ ...target, name: 'c2', body: { spec: { storage: { size: '2Gi' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch)));
  assert.equal(immutable.code, 422);
  assert.equal(immutable.body.message, 'KvstoreCluster.kvstore.io "c2" is invalid: spec.storage: Invalid value: "object": is immutable');
  await custom.deleteNamespacedCustomObject({ ...target, name: 'c2' });

  const list = (await custom.listNamespacedCustomObject(target)) as { items: unknown[]; metadata: { resourceVersion: string } };
  assert.equal(list.items.length, 1);

  // Discovery lists the new type; KubernetesObjectApi (which uses discovery) reads it.
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const read = await objects.read({ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'c1', namespace: ns } });
  assert.equal((read as { status?: { phase?: string } }).status?.phase, 'Upgrading');
});

void test('finalizers hold a deletion until removed; owner references cascade in the background', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const owner = await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'owner', finalizers: ['kvstore.io/cleanup'] } } });
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '', controller: true };
  await core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'dependent', ownerReferences: [ref] } } });
  await core.createNamespacedService({ namespace: ns, body: { metadata: { name: 'dep-svc', ownerReferences: [ref] }, spec: { clusterIP: 'None' } } });

  await core.deleteNamespacedConfigMap({ name: 'owner', namespace: ns });
  const deleting = await core.readNamespacedConfigMap({ name: 'owner', namespace: ns });
  assert.ok(deleting.metadata?.deletionTimestamp instanceof Date);
  const cannotAdd: V1ConfigMap = { ...deleting, metadata: { ...deleting.metadata, finalizers: ['kvstore.io/cleanup', 'other'] } };
  const after1 = await core.replaceNamespacedConfigMap({ name: 'owner', namespace: ns, body: cannotAdd });
  assert.deepEqual(after1.metadata?.finalizers, ['kvstore.io/cleanup'], 'no new finalizer once deleting');
  assert.ok((await core.readNamespacedConfigMap({ name: 'dependent', namespace: ns })).metadata, 'dependents stay while the owner exists');

  await core.patchNamespacedConfigMap({ name: 'owner', namespace: ns, body: [{ op: 'remove', path: '/metadata/finalizers' }] });
  assert.equal((await failure(core.readNamespacedConfigMap({ name: 'owner', namespace: ns }))).code, 404);
  await eventually('dependents collected', async () => {
    const cms = await core.listNamespacedConfigMap({ namespace: ns, fieldSelector: 'metadata.name=dependent' });
    const svcs = await core.listNamespacedService({ namespace: ns });
    return cms.items.length === 0 && svcs.items.every((s) => s.metadata?.name !== 'dep-svc') ? true : undefined;
  });
});

void test('leases for leader election: create, renew with the resourceVersion read, a stale renewal conflicts', async () => {
  const coord = kc.makeApiClient(CoordinationV1Api);
  const now = new Date();
  const lease = await coord.createNamespacedLease({ namespace: ns, body: { metadata: { name: 'kvstore-operator' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 15, acquireTime: now, renewTime: now } } });
  const renewed = await coord.replaceNamespacedLease({ name: 'kvstore-operator', namespace: ns, body: { ...lease, spec: { ...lease.spec, renewTime: new Date(now.getTime() + 1000) } } });
  assert.equal(renewed.spec?.holderIdentity, 'a');
  const takeover = await failure(coord.replaceNamespacedLease({ name: 'kvstore-operator', namespace: ns, body: { ...lease, spec: { ...lease.spec, holderIdentity: 'b' } } }));
  assert.equal(takeover.code, 409);
});

void test('events through core/v1 and events.k8s.io/v1', async () => {
  const core = kc.makeApiClient(CoreV1Api);
  const events = kc.makeApiClient(EventsV1Api);
  await core.createNamespacedEvent({ namespace: ns, body: { metadata: { generateName: 'c1.' }, involvedObject: { kind: 'KvstoreCluster', name: 'c1', namespace: ns }, reason: 'UpgradeStarted', message: '3.4.0 → 3.5.0', type: 'Normal' } });
  await events.createNamespacedEvent({ namespace: ns, body: { metadata: { generateName: 'c1.' }, eventTime: new Date(), regarding: { kind: 'KvstoreCluster', name: 'c1', namespace: ns }, reason: 'UpgradeBlocked', note: 'downgrade refused', type: 'Warning', action: 'Upgrade', reportingController: 'kvstore.io/operator', reportingInstance: 'op-1' } });
  const core1 = await core.listNamespacedEvent({ namespace: ns, fieldSelector: 'involvedObject.name=c1' });
  assert.deepEqual(core1.items.map((e) => e.reason), ['UpgradeStarted']);
  const v1 = await events.listNamespacedEvent({ namespace: ns });
  assert.deepEqual(v1.items.map((e) => e.reason), ['UpgradeBlocked']);
});

void test('server-side apply creates, then merges; a kubeconfig file works for another client', async () => {
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'applied', namespace: ns, labels: { a: '1' } }, spec: { clusterIP: 'None', ports: [{ name: 'peer', port: 2380 }] } };
  await objects.patch(svc, undefined, undefined, 'kvstore-operator', true, PatchStrategy.ServerSideApply);
  await objects.patch({ ...svc, metadata: { ...svc.metadata, labels: { b: '2' } } }, undefined, undefined, 'kvstore-operator', true, PatchStrategy.ServerSideApply);
  const read = await kc.makeApiClient(CoreV1Api).readNamespacedService({ name: 'applied', namespace: ns });
  assert.deepEqual(read.metadata?.labels, { a: '1', b: '2' });

  const dir = makeTempDir('kubeconfig');
  const other = new KubeConfigClass();
  other.loadFromFile(api.writeKubeConfig(join(dir, 'config')));
  const again = await other.makeApiClient(CoreV1Api).readNamespacedService({ name: 'applied', namespace: ns });
  assert.equal(again.metadata?.uid, read.metadata?.uid);
});
