import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { buildStatefulSet } from '../../../operator/controller/builders/stateful-set.js';
import type { MemberTemplate } from '../../../operator/controller/builders/member-template.js';
import type { KvstoreCluster } from '../../../operator/api/types.js';
import { makeCluster } from './support.js';

const T: MemberTemplate = { members: 3, version: '3.4.27' };

function container(cluster: KvstoreCluster, template: MemberTemplate = T) {
  const c = buildStatefulSet(cluster, template).spec?.template.spec?.containers[0];
  assert.ok(c);
  return c;
}

void test('StatefulSet: OnDelete, Parallel, the headless service, replicas = members, owned', () => {
  const sts = buildStatefulSet(makeCluster({ size: 5 }), { members: 4, version: '3.4.27' });
  assert.doesNotThrow(() => new StatefulSet(sts).validate());
  assert.equal(sts.metadata?.name, 'demo');
  assert.equal(sts.metadata?.namespace, 'prod');
  assert.deepEqual(sts.metadata?.ownerReferences?.map((r) => [r.kind, r.name, r.controller, r.blockOwnerDeletion]), [['KvstoreCluster', 'demo', true, true]]);
  assert.equal(sts.spec?.replicas, 4);
  assert.equal(sts.spec?.serviceName, 'demo-peer');
  assert.equal(sts.spec?.podManagementPolicy, 'Parallel');
  assert.deepEqual(sts.spec?.updateStrategy, { type: 'OnDelete' });
  assert.deepEqual(sts.spec?.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Delete' });
});

void test('StatefulSet: the selector matches the pod labels and never carries the version', () => {
  const a = buildStatefulSet(makeCluster(), T);
  const b = buildStatefulSet(makeCluster({ version: '3.5.0' }), { members: 3, version: '3.5.0' });
  assert.deepEqual(a.spec?.selector, b.spec?.selector);
  const labels = a.spec?.template.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(a.spec?.selector.matchLabels ?? {})) assert.equal(labels[k], v);
  assert.deepEqual(labels, {
    'app.kubernetes.io/name': 'kvstore',
    'app.kubernetes.io/instance': 'demo',
    'app.kubernetes.io/managed-by': 'kvstore-operator',
    'app.kubernetes.io/component': 'member',
    'app.kubernetes.io/version': '3.4.27',
  });
});

/** [case, spec, claim spec] */
const STORAGE_CASES = [
  ['default storage', {}, { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } }],
  ['size and class', { storage: { size: '20Gi', storageClassName: 'fast' } }, { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } }, storageClassName: 'fast' }],
  ['size as bytes', { storage: { size: 1073741824 as unknown as string } }, { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1073741824' } } }],
] as const;

for (const [name, spec, claim] of STORAGE_CASES) {
  void test(`StatefulSet volume claim template: ${name}`, () => {
    const sts = buildStatefulSet(makeCluster(spec), T);
    assert.doesNotThrow(() => new StatefulSet(sts).validate());
    const templates = sts.spec?.volumeClaimTemplates ?? [];
    assert.deepEqual(templates.map((t) => t.metadata?.name), ['data']);
    assert.deepEqual(templates[0]?.spec, claim);
    assert.deepEqual(container(makeCluster(spec)).volumeMounts?.find((m) => m.name === 'data'), { name: 'data', mountPath: '/var/lib/kvstore' });
  });
}

/** The image and KVSTORE_SERVER_VERSION follow the template's version, not spec.version. */
const VERSION_CASES = [
  ['spec version', makeCluster({ version: '3.4.27' }), '3.4.27', 'kvstore/kvstore:3.4.27'],
  ['upgrade in flight: template moved on', makeCluster({ version: '3.5.0' }), '3.5.0', 'kvstore/kvstore:3.5.0'],
  ['upgrade in flight: template still old', makeCluster({ version: '3.5.0' }), '3.4.27', 'kvstore/kvstore:3.4.27'],
  ['own image repository', makeCluster({ version: '3.3.27', image: 'registry.example.com/team/kvstore' }), '3.3.27', 'registry.example.com/team/kvstore:3.3.27'],
] as const;

for (const [name, cluster, version, image] of VERSION_CASES) {
  void test(`StatefulSet container: ${name} → ${image}`, () => {
    const sts = buildStatefulSet(cluster, { members: 3, version });
    assert.doesNotThrow(() => new StatefulSet(sts).validate());
    const c = container(cluster, { members: 3, version });
    assert.equal(c.image, image);
    assert.deepEqual(c.env, [
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'KVSTORE_SERVER_VERSION', value: version },
      { name: 'KVSTORE_DATA_DIR', value: '/var/lib/kvstore/data' },
    ]);
    assert.equal(sts.spec?.template.metadata?.labels?.['app.kubernetes.io/version'], version);
  });
}

void test('StatefulSet container: probes, ports, command, non-root and read-only root', () => {
  const sts = buildStatefulSet(makeCluster(), T);
  const pod = sts.spec?.template.spec;
  const c = container(makeCluster());
  assert.deepEqual(c.command, ['kvstore']);
  assert.deepEqual(c.ports?.map((p) => [p.name, p.containerPort]), [['client', 2379], ['peer', 2380]]);
  assert.deepEqual(c.readinessProbe?.httpGet, { path: '/health', port: 'client' });
  assert.deepEqual(c.livenessProbe?.httpGet, { path: '/version', port: 'client' });
  assert.equal(c.securityContext?.allowPrivilegeEscalation, false);
  assert.equal(c.securityContext?.readOnlyRootFilesystem, true);
  assert.deepEqual(c.securityContext?.capabilities, { drop: ['ALL'] });
  assert.equal(pod?.securityContext?.runAsNonRoot, true);
  assert.equal(typeof pod?.securityContext?.runAsUser, 'number');
  assert.notEqual(pod?.securityContext?.runAsUser, 0);
  assert.equal(pod?.enableServiceLinks, false);
});

void test('StatefulSet pods: scheduling and resources from the spec are passed through', () => {
  const spec = {
    resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { memory: '2Gi' } },
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }] } } },
    tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'kvstore', effect: 'NoSchedule' }],
    nodeSelector: { 'kubernetes.io/os': 'linux' },
  };
  const cluster = makeCluster(spec);
  const sts = buildStatefulSet(cluster, T);
  assert.doesNotThrow(() => new StatefulSet(sts).validate());
  const pod = sts.spec?.template.spec;
  assert.deepEqual(pod?.containers[0]?.resources, spec.resources);
  assert.deepEqual(pod?.affinity, spec.affinity);
  assert.deepEqual(pod?.tolerations, spec.tolerations);
  assert.deepEqual(pod?.nodeSelector, spec.nodeSelector);
});

void test('StatefulSet pods: without spec.affinity members prefer distinct nodes', () => {
  const pod = buildStatefulSet(makeCluster(), T).spec?.template.spec;
  const term = pod?.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0];
  assert.equal(term?.podAffinityTerm.topologyKey, 'kubernetes.io/hostname');
  assert.deepEqual(term?.podAffinityTerm.labelSelector?.matchLabels, { 'app.kubernetes.io/name': 'kvstore', 'app.kubernetes.io/instance': 'demo' });
  assert.equal(pod?.tolerations, undefined);
  assert.equal(pod?.nodeSelector, undefined);
  assert.equal(pod?.containers[0]?.resources, undefined);
});

void test('StatefulSet: the same inputs build the same object (a replaced pod gets the same template)', () => {
  assert.deepEqual(buildStatefulSet(makeCluster(), T), buildStatefulSet(makeCluster(), T));
});
