import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Service } from 'kubernetes-models/v1/Service';
import { buildOwnedObjects, type OwnedObject } from '../../../operator/controller/builders/owned-objects.js';
import type { ClusterSize } from '../../../operator/api/types.js';
import { makeCluster } from './support.js';

function validate(o: OwnedObject): void {
  switch (o.kind) {
    case 'Service':
      return new Service(o).validate();
    case 'StatefulSet':
      return new StatefulSet(o).validate();
    case 'PodDisruptionBudget':
      return new PodDisruptionBudget(o).validate();
  }
}

const SIZES: readonly ClusterSize[] = [1, 3, 5, 7];
const VERSIONS = ['3.2.32', '3.3.27', '3.4.27', '3.5.17'];

for (const size of SIZES) {
  for (const version of VERSIONS) {
    void test(`owned objects of a ${size}-member ${version} cluster are valid Kubernetes objects`, () => {
      const cluster = makeCluster({ size, version, storage: { size: '5Gi', storageClassName: 'standard' } }, { name: `c${size}`, namespace: 'ns' });
      const objects = buildOwnedObjects(cluster, { members: size, version });
      assert.deepEqual(objects.map((o) => `${o.kind}/${o.metadata?.name}`), [`Service/c${size}-peer`, `Service/c${size}-client`, `StatefulSet/c${size}`, `PodDisruptionBudget/c${size}`]);
      for (const o of objects) {
        assert.doesNotThrow(() => validate(o), `${o.kind}`);
        assert.equal(o.metadata?.namespace, 'ns');
        assert.equal(o.metadata?.labels?.['app.kubernetes.io/managed-by'], 'kvstore-operator');
        assert.equal(o.metadata?.ownerReferences?.length, 1);
      }
    });
  }
}
