// Scaling on Kubernetes (in-process operator, test API server, real kvstore pods): 3 → 5 adds
// one member at a time as a learner (its pod joins with `--initial-cluster-state existing`) and
// promotes it once caught up; 5 → 3 removes the highest ordinals one at a time, and the
// StatefulSet shrinks. The data written before stays readable throughout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../../support/eventually.js';
import { openKv, put, readPrefix } from '../../support/kv-client.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
const PODS = ['demo-0', 'demo-1', 'demo-2', 'demo-3', 'demo-4'];
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

async function replicas(): Promise<number | undefined> {
  const sts = (await (await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/demo`)).json()) as { spec?: { replicas?: number } };
  return sts.spec?.replicas;
}

void test('3 → 5 → 3 members, one at a time', { timeout: 5 * BOUND }, async (t) => {
  await fx.startOperator();
  await fx.createCluster('demo', { size: 3, version: '3.4.0' });
  await eventually('Running with 3', async () => {
    const c = await fx.getCluster('demo');
    return c?.status?.phase === 'Running' && c.status.readyMembers === '3/3' ? true : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS.slice(0, 3)) });
  const [first] = await fx.endpoints(['demo-0']);
  const kv = openKv(first ?? '');
  try {
    for (let i = 0; i < 20; i++) await put(kv, `before/${i}`, `v${i}`, 10_000);
  } finally {
    kv.close();
  }

  await fx.patchSpec('demo', { size: 5 });
  const grown = await eventually('Running with 5 voting members', async () => {
    const c = await fx.getCluster('demo');
    const ok = c?.status?.phase === 'Running' && c.status.readyMembers === '5/5' && c.status.members.length === 5 && c.status.members.every((m) => m.healthy);
    return ok ? c : undefined;
  }, { timeoutMs: 2 * BOUND, describe: () => fx.describe(PODS) });
  assert.deepEqual(grown.status?.members.map((m) => m.name), PODS);
  assert.equal(await replicas(), 5);
  let reasons = (await fx.eventsWith('demo', 'MemberPromoted', 2)).map((e) => e.reason);
  t.diagnostic(`events: ${reasons.join(', ')}`);
  assert.equal(reasons.filter((r) => r === 'MemberAdded').length, 2);
  assert.equal(reasons.filter((r) => r === 'MemberPromoted').length, 2);
  assert.ok(reasons.indexOf('MemberPromoted') < reasons.lastIndexOf('MemberAdded'), 'the first new member is promoted before the second is added');
  const [fifth] = await fx.endpoints(['demo-4']);
  const kv5 = openKv(fifth ?? '');
  try {
    const { kvs } = await readPrefix(kv5, 'before/');
    assert.equal(kvs.size, 20, 'the new member serves the data written before it joined');
  } finally {
    kv5.close();
  }

  await fx.patchSpec('demo', { size: 3 });
  const shrunk = await eventually('Running with 3 again', async () => {
    const c = await fx.getCluster('demo');
    const ok = c?.status?.phase === 'Running' && c.status.readyMembers === '3/3' && c.status.members.length === 3 && (await replicas()) === 3;
    return ok ? c : undefined;
  }, { timeoutMs: 2 * BOUND, describe: () => fx.describe(PODS) });
  assert.deepEqual(shrunk.status?.members.map((m) => m.name), PODS.slice(0, 3));
  assert.equal(condition(shrunk.status, 'Available')?.status, 'True');
  reasons = (await fx.eventsWith('demo', 'MemberRemoved', 2)).map((e) => e.reason);
  assert.equal(reasons.filter((r) => r === 'MemberRemoved').length, 2);
  await eventually('pods demo-3 and demo-4 gone', async () => {
    const list = (await (await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/pods`)).json()) as { items: { metadata: { name: string } }[] };
    const names = list.items.map((p) => p.metadata.name);
    return !names.includes('demo-3') && !names.includes('demo-4') ? true : undefined;
  }, { timeoutMs: BOUND });
});
