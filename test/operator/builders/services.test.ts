import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Service } from 'kubernetes-models/v1/Service';
import { buildClientService } from '../../../operator/controller/builders/client-service.js';
import { buildPeerService } from '../../../operator/controller/builders/peer-service.js';
import { makeCluster, UID } from './support.js';

const SELECTOR = { 'app.kubernetes.io/name': 'kvstore', 'app.kubernetes.io/instance': 'demo' };
const LABELS = { ...SELECTOR, 'app.kubernetes.io/managed-by': 'kvstore-operator' };
const OWNER = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', name: 'demo', uid: UID, controller: true, blockOwnerDeletion: true };

void test('peer Service: headless, publishes not-ready members, client and peer ports, owned', () => {
  const svc = buildPeerService(makeCluster());
  assert.doesNotThrow(() => new Service(svc).validate());
  assert.deepEqual(svc.metadata, { name: 'demo-peer', namespace: 'prod', labels: LABELS, ownerReferences: [OWNER] });
  assert.equal(svc.spec?.clusterIP, 'None');
  assert.equal(svc.spec?.publishNotReadyAddresses, true);
  assert.deepEqual(svc.spec?.selector, SELECTOR);
  assert.deepEqual(svc.spec?.ports?.map((p) => [p.name, p.port, p.targetPort]), [['client', 2379, 'client'], ['peer', 2380, 'peer']]);
});

void test('client Service: a ClusterIP on the client port of ready members, owned', () => {
  const svc = buildClientService(makeCluster());
  assert.doesNotThrow(() => new Service(svc).validate());
  assert.deepEqual(svc.metadata, { name: 'demo-client', namespace: 'prod', labels: LABELS, ownerReferences: [OWNER] });
  assert.equal(svc.spec?.type, 'ClusterIP');
  assert.equal(svc.spec?.publishNotReadyAddresses, undefined);
  assert.deepEqual(svc.spec?.selector, SELECTOR);
  assert.deepEqual(svc.spec?.ports?.map((p) => [p.name, p.port]), [['client', 2379]]);
});

const META_CASES = [
  ['no namespace → default', makeCluster({}, { namespace: null }), 'default'],
  ['other namespace and name', makeCluster({}, { name: 'orders', namespace: 'shop' }), 'shop'],
] as const;

for (const [name, cluster, ns] of META_CASES) {
  void test(`Services: ${name}`, () => {
    for (const svc of [buildPeerService(cluster), buildClientService(cluster)]) {
      assert.doesNotThrow(() => new Service(svc).validate());
      assert.equal(svc.metadata?.namespace, ns);
      assert.ok(svc.metadata?.name?.startsWith(`${cluster.metadata.name}-`));
      assert.equal(svc.spec?.selector?.['app.kubernetes.io/instance'], cluster.metadata.name);
    }
  });
}

void test('Services: no owner reference when the uid is unknown (local mode)', () => {
  const svc = buildPeerService(makeCluster({}, { uid: null }));
  assert.doesNotThrow(() => new Service(svc).validate());
  assert.equal(svc.metadata?.ownerReferences, undefined);
});
