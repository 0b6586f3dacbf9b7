// Rollback while mixed, on Kubernetes (in-process operator, test API server, real kvstore pods):
// 3.4.0 → 3.5.0 is started; once one member runs 3.5.0 (held there by a long v2 wait),
// spec.version goes back to 3.4.0: the upgraded member is rolled back, the others are never
// touched, the upgrade ends RolledBack with every member and the template on 3.4.0.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../../support/eventually.js';
import { openKv, put } from '../../support/kv-client.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
const PODS = ['demo-0', 'demo-1', 'demo-2'];
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

void test('setting spec.version back while mixed rolls the upgraded member back', { timeout: 4 * BOUND }, async (t) => {
  await fx.startOperator();
  await fx.createCluster('demo', {
    size: 3,
    version: '3.4.0',
    options: { enableV2: true },
    upgrade: { v2WaitSeconds: 600, v2ThresholdBytes: 1, memberHealthTimeoutSeconds: 120 },
  });
  await eventually('Running at 3.4.0', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.phase === 'Running' && c.status.clusterVersion === '3.4.0' ? true : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });

  const [first] = await fx.endpoints(['demo-0']);
  const kv = openKv(first ?? '');
  try {
    await put(kv, 'greeting', 'hello', 10_000);
  } finally {
    kv.close();
  }
  await fx.patchSpec('demo', { version: '3.5.0' });
  const mixed = await eventually('one member upgraded, v2 wait', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.upgrade?.state === 'WaitingV2' && c.status.upgrade.membersDone.length === 1 ? c : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
  const upgraded = mixed.status?.upgrade?.membersDone[0] ?? '';
  assert.ok(PODS.includes(upgraded));
  assert.equal(mixed.status?.members.find((m) => m.name === upgraded)?.version, '3.5.0');
  assert.equal(condition(mixed.status, 'Upgrading')?.status, 'True');
  assert.equal(mixed.status?.phase, 'Upgrading');

  await fx.patchSpec('demo', { version: '3.4.0' });
  const back = await eventually('RolledBack', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.upgrade?.state === 'RolledBack' ? c : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
  const s = back.status;
  assert.ok(s !== undefined);
  assert.ok(s.members.every((m) => m.version === '3.4.0'), JSON.stringify(s.members));
  assert.deepEqual(s.upgrade?.membersDone, []);
  const events = await fx.eventsWith('demo', 'RollbackCompleted');
  const reasons = events.map((e) => e.reason);
  t.diagnostic(`events: ${reasons.join(', ')}`);
  assert.ok(reasons.includes('RollbackStarted') && reasons.includes('RollbackCompleted'), reasons.join(','));
  const rolled = events.filter((e) => e.reason === 'MemberRollbackStarted');
  assert.equal(rolled.length, 1, rolled.map((e) => e.message).join(' | '));
  assert.ok(rolled[0]?.message.includes(`restarting ${upgraded}`), rolled[0]?.message);
  for (const p of PODS) assert.equal(fx.runner.runsOf(p, NS).length, p === upgraded ? 3 : 1, `runs of ${p}`);
  const sts = (await (await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/demo`)).json()) as { spec: { template: { spec: { containers: { image: string }[] } } } };
  assert.equal(sts.spec.template.spec.containers[0]?.image, 'kvstore/kvstore:3.4.0');
  await eventually('Running again', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.phase === 'Running' && condition(c.status, 'Upgrading')?.status === 'False' ? true : undefined;
  }, { timeoutMs: BOUND });
});
