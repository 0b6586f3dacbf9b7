import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLUSTER_VERSION_NOT_DECIDED, gateOnClusterVersion } from '../../../server/clusterversion/health-gate.js';

const healthy = { healthy: true, reason: '' };

void test('/health: healthy once the cluster version is decided', () => {
  assert.deepEqual(gateOnClusterVersion(healthy, '3.4'), healthy);
  assert.deepEqual(gateOnClusterVersion(healthy, '3.0'), healthy);
});

void test('/health: unhealthy while the cluster version is not decided', () => {
  assert.deepEqual(gateOnClusterVersion(healthy, undefined), { healthy: false, reason: CLUSTER_VERSION_NOT_DECIDED });
});

void test("/health: the member's own reason comes first", () => {
  const noLeader = { healthy: false, reason: 'RAFT NO LEADER' };
  assert.deepEqual(gateOnClusterVersion(noLeader, undefined), noLeader);
  assert.deepEqual(gateOnClusterVersion(noLeader, '3.4'), noLeader);
});
