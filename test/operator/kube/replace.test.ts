// Replacing a member whose data is gone, on Kubernetes (in-process operator, test API server,
// real kvstore pods; a claim's volume is per claim uid, so a claim deleted and recreated is
// empty): the claim `data-demo-1` and the pod are deleted; the StatefulSet brings both back, the
// member starts empty; the operator sees the claim is not the one the member ran with (DataLost),
// removes it (MemberReplacing), re-adds it as a learner with a reset slot (MemberReplaced),
// promotes it (MemberPromoted): 3 voting healthy members again, demo-1 under a new member id,
// serving the keys written before.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createMemberAdmin } from '../../../operator/controller/admin/member-admin.js';
import { eventually } from '../../support/eventually.js';
import { openKv, put, readPrefix } from '../../support/kv-client.js';
import { NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
const PODS = ['demo-0', 'demo-1', 'demo-2'];
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
  fx.runner.readClaims(async (ns, name) => {
    const res = await fetch(`${fx.api.url}/api/v1/namespaces/${ns}/persistentvolumeclaims/${name}`);
    return res.status === 200 ? ((await res.json()) as { metadata: { uid?: string } }).metadata.uid : undefined;
  });
});
after(async () => {
  await fx.close();
});

async function claimRecord(): Promise<Record<string, string>> {
  const sts = (await (await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/demo`)).json()) as { metadata?: { annotations?: Record<string, string> } };
  return JSON.parse(sts.metadata?.annotations?.['kvstore.io/member-claims'] ?? '{}') as Record<string, string>;
}

void test('a member whose claim is replaced (data gone) is removed, re-added as a learner and promoted', { timeout: 4 * BOUND }, async () => {
  const admin = createMemberAdmin();
  try {
    await fx.startOperator();
    await fx.createCluster('demo', { size: 3, version: '3.4.0' });
    await eventually('Running with 3', async () => {
      const c = await fx.getCluster('demo');
      return c?.status?.phase === 'Running' && c.status.readyMembers === '3/3' ? true : undefined;
    }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
    const [first, second] = await fx.endpoints(['demo-0', 'demo-1']);
    const kv = openKv(first ?? '');
    try {
      for (let i = 0; i < 20; i++) await put(kv, `keep/${i}`, `v${i}`, 10_000);
    } finally {
      kv.close();
    }
    await eventually('the claims of the 3 members recorded', async () => (Object.keys(await claimRecord()).length === 3 ? true : undefined), { timeoutMs: BOUND });
    const before = await admin.memberList(`http://${first}`);
    assert.ok(before.ok);
    const oldId = before.value.find((m) => m.name === 'demo-1')?.id;
    assert.ok(oldId !== undefined);

    // The member's storage is replaced: claim and pod deleted, the StatefulSet recreates both.
    for (const path of [`persistentvolumeclaims/data-demo-1`, `pods/demo-1`]) {
      const res = await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/${path}`, { method: 'DELETE' });
      assert.ok(res.ok, `DELETE ${path}: ${res.status}`);
    }

    const replacing = (await eventually('MemberReplacing', async () => (await fx.events('demo')).find((e) => e.reason === 'MemberReplacing'), { timeoutMs: BOUND, describe: () => fx.describe(PODS) }));
    assert.match(replacing.message, /demo-1.*reason DataLost/);
    const replaced = await eventually('MemberReplaced', async () => (await fx.events('demo')).find((e) => e.reason === 'MemberReplaced'), { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
    assert.match(replaced.message, /demo-1.*reason DataLost/);
    await eventually('MemberPromoted', async () => (await fx.events('demo')).find((e) => e.reason === 'MemberPromoted'), { timeoutMs: BOUND, describe: () => fx.describe(PODS) });

    await eventually('Running with 3 healthy voting members, demo-1 under a new id', async () => {
      const c = await fx.getCluster('demo');
      if (!(c?.status?.phase === 'Running' && c.status.readyMembers === '3/3' && c.status.members.every((m) => m.healthy))) return undefined;
      const list = await admin.memberList(`http://${first}`);
      if (!list.ok) return undefined;
      const voting = list.value.filter((m) => !m.isLearner).map((m) => m.name).sort();
      const d1 = list.value.find((m) => m.name === 'demo-1');
      return voting.join(',') === PODS.join(',') && d1 !== undefined && d1.id !== oldId ? true : undefined;
    }, { timeoutMs: 2 * BOUND, describe: () => fx.describe(PODS) });

    // A serializable read: answered from demo-1's own store.
    const kv1 = openKv(second ?? '');
    try {
      const { kvs } = await readPrefix(kv1, 'keep/', { serializable: true });
      assert.equal(kvs.size, 20);
    } finally {
      kv1.close();
    }
  } finally {
    admin.close();
  }
});
