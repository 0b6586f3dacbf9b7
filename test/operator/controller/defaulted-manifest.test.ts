// reconcile takes the cluster exactly as operator/api's withDefaults() leaves a minimal manifest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withDefaults } from '../../../operator/api/defaults.js';
import type { KvstoreClusterInput } from '../../../operator/api/types.js';
import { reconcile } from '../../../operator/controller/reconcile.js';
import { spec } from './fixtures.js';

void test('a minimal manifest, defaulted, is created with its defaults, and the fixtures match those defaults', () => {
  const input = { apiVersion: 'kvstore.io/v1alpha1', kind: 'KvstoreCluster', metadata: { name: 'mini' }, spec: { version: '3.4.0' } } as unknown as KvstoreClusterInput;
  const cluster = withDefaults(input);
  const plan = reconcile(cluster, { now: '2026-03-01T10:00:00Z', objectsExist: false, templateVersion: '', members: [] });
  assert.deepEqual(plan.actions, [{ kind: 'EnsureObjects', version: '3.4.0', replicas: 3 }]);
  assert.equal(plan.status.phase, 'Creating');
  assert.equal(plan.status.observedGeneration, 0);
  const defaults = cluster.spec;
  const mine = spec();
  assert.deepEqual(
    { size: defaults.size, upgrade: defaults.upgrade, paused: defaults.paused },
    { size: mine.size, upgrade: mine.upgrade, paused: mine.paused },
  );
});
