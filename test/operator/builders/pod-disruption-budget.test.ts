import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { buildPodDisruptionBudget } from '../../../operator/controller/builders/pod-disruption-budget.js';
import type { ClusterSize } from '../../../operator/api/types.js';
import { makeCluster } from './support.js';

/** [size, budget] — one member at a time keeps a majority of 3/5/7; one member cannot be kept. */
const CASES: readonly (readonly [ClusterSize, Record<string, number>])[] = [
  [1, { minAvailable: 0 }],
  [3, { maxUnavailable: 1 }],
  [5, { maxUnavailable: 1 }],
  [7, { maxUnavailable: 1 }],
];

for (const [size, budget] of CASES) {
  void test(`PodDisruptionBudget for ${size} member(s): ${JSON.stringify(budget)}`, () => {
    const pdb = buildPodDisruptionBudget(makeCluster({ size }));
    assert.doesNotThrow(() => new PodDisruptionBudget(pdb).validate());
    assert.equal(pdb.apiVersion, 'policy/v1');
    assert.equal(pdb.metadata?.name, 'demo');
    assert.equal(pdb.metadata?.ownerReferences?.[0]?.controller, true);
    const { selector, ...rest } = pdb.spec ?? {};
    assert.deepEqual(rest, budget);
    assert.deepEqual(selector, { matchLabels: { 'app.kubernetes.io/name': 'kvstore', 'app.kubernetes.io/instance': 'demo' } });
  });
}

void test('PodDisruptionBudget follows the member count given, not spec.size (while scaling)', () => {
  assert.deepEqual(buildPodDisruptionBudget(makeCluster({ size: 3 }), 1).spec?.minAvailable, 0);
  assert.deepEqual(buildPodDisruptionBudget(makeCluster({ size: 1 }), 3).spec?.maxUnavailable, 1);
});
