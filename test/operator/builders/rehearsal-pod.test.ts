// The scratch pod of an upgrade rehearsal: the TARGET member image (init and member container),
// labels no Service / PDB / StatefulSet of the cluster selects (they select name=kvstore +
// instance), the controller owner reference to the cluster, restartPolicy Never, a single-member
// command line whose restore flags match the member's, the token where the route reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { selectorLabels } from '../../../operator/controller/builders/labels.js';
import { buildRehearsalPod, rehearsalLabels, rehearsalPodName, rehearsalSelector, rehearsalToken } from '../../../operator/controller/builders/rehearsal-pod.js';
import { buildStatefulSet } from '../../../operator/controller/builders/stateful-set.js';
import { makeCluster, UID } from './support.js';

const INPUT = { id: 'demo-20261127t001530z', version: '3.5.2', url: 'http://op.svc:8080/rehearsal/prod/demo-rehearsal-20261127t001530z', token: 't0k3n', sha256: 'ab'.repeat(32), snapshot: 'demo-3.4.27-to-3.5.2-20261127T001529Z.db' };

void test('rehearsal pod names: <cluster>-rehearsal-<id suffix>, a DNS label of at most 63 characters', () => {
  const c = makeCluster();
  const table: readonly (readonly [string, string])[] = [
    ['demo-20261127t001530z', 'demo-rehearsal-20261127t001530z'],
    ['other-ID_1', 'demo-rehearsal-other-id-1'],
    ['demo-', 'demo-rehearsal-x'],
  ];
  for (const [id, name] of table) assert.equal(rehearsalPodName(c, id), name, id);
  const long = makeCluster({}, { name: 'a'.repeat(60) });
  const n = rehearsalPodName(long, `${'a'.repeat(60)}-20261127t001530z`);
  assert.ok(n.length <= 63 && !n.endsWith('-'), n);
});

void test('rehearsal pod: target image, not selected by the member selectors, owned by the cluster, never restarted', () => {
  const c = makeCluster({ options: { logLevel: 'debug', quotaBackendBytes: 1024 }, nodeSelector: { disk: 'ssd' }, resources: { limits: { memory: '1Gi' } } });
  const pod = buildRehearsalPod(c, INPUT);
  assert.equal(pod.metadata.name, 'demo-rehearsal-20261127t001530z');
  assert.equal(pod.metadata.namespace, 'prod');
  assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', name: 'demo', uid: UID, controller: true, blockOwnerDeletion: true }]);
  assert.equal(pod.metadata.annotations?.['kvstore.io/rehearsal-id'], INPUT.id);
  assert.equal(pod.metadata.annotations?.['kvstore.io/rehearsal-snapshot'], INPUT.snapshot);
  const labels = pod.metadata.labels ?? {};
  assert.deepEqual(labels, rehearsalLabels(c, '3.5.2'));
  // The member selector (client / peer Service, PDB, StatefulSet) does not match it.
  const selects = (sel: Record<string, string>): boolean => Object.entries(sel).every(([k, v]) => labels[k] === v);
  assert.equal(selects(selectorLabels(c)), false);
  assert.equal(selects(buildStatefulSet(c, { version: '3.4.27', members: 3 }).spec?.selector.matchLabels ?? {}), false);
  assert.equal(labels['app.kubernetes.io/instance'], 'demo');
  assert.equal(labels['app.kubernetes.io/managed-by'], 'kvstore-operator');
  assert.equal(rehearsalSelector(c), 'app.kubernetes.io/name=kvstore-rehearsal,app.kubernetes.io/instance=demo,app.kubernetes.io/managed-by=kvstore-operator,app.kubernetes.io/component=rehearsal');

  const spec = pod.spec;
  assert.ok(spec !== undefined);
  assert.equal(spec.restartPolicy, 'Never');
  assert.equal(spec.automountServiceAccountToken, false);
  assert.deepEqual(spec.nodeSelector, { disk: 'ssd' });
  const [init] = spec.initContainers ?? [];
  const [member] = spec.containers;
  assert.equal(init?.image, 'kvstore/kvstore:3.5.2');
  assert.equal(member?.image, 'kvstore/kvstore:3.5.2');
  assert.deepEqual(member?.resources, { limits: { memory: '1Gi' } });
  assert.deepEqual(member?.env?.find((e) => e.name === 'KVSTORE_SERVER_VERSION'), { name: 'KVSTORE_SERVER_VERSION', value: '3.5.2' });
  assert.deepEqual(member?.args, [
    '--name=rehearsal',
    '--listen-client-urls=http://0.0.0.0:2379',
    '--advertise-client-urls=http://$(POD_IP):2379',
    '--listen-peer-urls=http://127.0.0.1:2380',
    '--initial-advertise-peer-urls=http://127.0.0.1:2380',
    '--initial-cluster=rehearsal=http://127.0.0.1:2380',
    `--initial-cluster-token=rehearsal-${INPUT.id}`,
    '--initial-cluster-state=new',
    '--quota-backend-bytes=1024',
    '--log-level=debug',
  ]);
  // The restore writes the membership the member starts with.
  assert.deepEqual(init?.args, ['/var/lib/kvstore/data', 'new', '--name', 'rehearsal', '--initial-cluster', 'rehearsal=http://127.0.0.1:2380', '--initial-cluster-token', `rehearsal-${INPUT.id}`, '--initial-advertise-peer-urls', 'http://127.0.0.1:2380']);
  const env = Object.fromEntries((init?.env ?? []).map((e) => [e.name, e.value]));
  assert.deepEqual(env, { KVSTORE_RESTORE_URL: INPUT.url, KVSTORE_RESTORE_SHA256: INPUT.sha256, KVSTORE_RESTORE_TOKEN: INPUT.token });
  assert.equal(rehearsalToken(pod), 't0k3n');
  assert.deepEqual(spec.volumes?.map((v) => v.name), ['data', 'tmp']);
  assert.ok(spec.volumes?.every((v) => v.emptyDir !== undefined));
});
