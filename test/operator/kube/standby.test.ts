// Two operators with leader election against one API server: exactly one holds the Lease
// `kvstore-operator` and reconciles (is_leader 1), the standby is ready but idle (is_leader 0);
// when the leader stops it releases the Lease and the standby takes over and reconciles
// (pausing the cluster is reported by the new leader).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../../support/eventually.js';
import type { KubeOperator } from '../../../operator/runtime/kube-controller/operator.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 90_000;
const PODS = ['demo-0', 'demo-1', 'demo-2'];
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

const election = (identity: string) => ({ namespace: NS, name: 'kvstore-operator', identity, leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 300 });

async function isLeaderMetric(op: KubeOperator): Promise<string | undefined> {
  return /kvstore_operator_is_leader (\d)/.exec(await op.registry.metrics())?.[1];
}

void test('one leader reconciles; the standby takes over when it stops', { timeout: 3 * BOUND }, async () => {
  const a = await fx.startOperator(election('a'));
  const b = await fx.startOperator(election('b'));
  const leader = await eventually('a leader', () => Promise.resolve(a.controller.isLeader ? a : b.controller.isLeader ? b : undefined));
  const standby = leader === a ? b : a;
  assert.equal(standby.controller.isLeader, false);
  await fx.createCluster('demo', { size: 3, version: '3.4.0' });
  await eventually('Running', async () => ((await fx.getCluster('demo'))?.status?.phase === 'Running' ? true : undefined), { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
  assert.equal(await isLeaderMetric(leader), '1');
  assert.equal(await isLeaderMetric(standby), '0');
  assert.equal((await fetch(`${standby.healthURL ?? ''}/readyz`)).status, 200, 'the standby is ready');

  await leader.stop();
  await eventually('the standby leads', () => Promise.resolve(standby.controller.isLeader ? true : undefined), { timeoutMs: BOUND });
  await fx.patchSpec('demo', { paused: true });
  const paused = await eventually('Paused reported by the new leader', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.phase === 'Paused' ? c : undefined;
  }, { timeoutMs: BOUND });
  assert.equal(condition(paused.status, 'Progressing')?.status, 'False');
  assert.equal(await isLeaderMetric(standby), '1');
});
