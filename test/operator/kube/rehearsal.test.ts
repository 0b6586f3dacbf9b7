// The upgrade rehearsal on Kubernetes fails safe (in-process operator, test API server, real
// kvstore pods): the pre-upgrade snapshot on the operator's volume is spoiled as the scratch pod
// starts (one byte of its body flipped, before the pod's restore init container fetches it from the
// operator), so the restore's SHA-256 check fails in the pod → UpgradeBlocked True reason
// RehearsalFailed, one Warning event carrying the scratch pod's log tail, the scratch pod
// deleted, and no member touched.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from '../../support/eventually.js';
import { openKv, put } from '../../support/kv-client.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
const PODS = ['spoil-0'];
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

async function rehearsalPods(): Promise<string[]> {
  const sel = encodeURIComponent('app.kubernetes.io/component=rehearsal,app.kubernetes.io/instance=spoil');
  const list = (await (await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/pods?labelSelector=${sel}`)).json()) as { items: { metadata: { name: string } }[] };
  return list.items.map((p) => p.metadata.name);
}

void test('a snapshot the scratch pod cannot restore blocks the upgrade: RehearsalFailed with its log tail, no member touched', { timeout: 3 * BOUND }, async () => {
  await fx.startOperator();
  await fx.createCluster('spoil', { size: 1, version: '3.4.0', upgrade: { rehearsalTimeoutSeconds: 120 } });
  await eventually('Running at 3.4.0', async () => {
    const c = await fx.getCluster('spoil');
    return c?.status?.phase === 'Running' && c.status.clusterVersion === '3.4.0' ? true : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
  const [endpoint] = await fx.endpoints(PODS);
  const kv = openKv(endpoint ?? '');
  try {
    for (let i = 0; i < 20; i++) await put(kv, `k${i}`, `v${i}`, 10_000);
  } finally {
    kv.close();
  }

  // As the scratch pod starts (before its init container runs), flip a byte in the middle of the snapshot.
  const spoiled: string[] = [];
  fx.runner.onStart = async (pod) => {
    if (!(pod.metadata.name ?? '').startsWith('spoil-rehearsal-')) return;
    const name = pod.metadata.annotations?.['kvstore.io/rehearsal-snapshot'];
    assert.ok(name !== undefined, 'the scratch pod names its snapshot');
    const file = join(fx.snapshotDir, NS, name);
    const f = await open(file, 'r+');
    try {
      const { size } = await f.stat();
      const at = Math.floor((size - 32) / 2);
      const b = Buffer.alloc(1);
      await f.read(b, 0, 1, at);
      b[0] = (b[0] ?? 0) ^ 0xff;
      await f.write(b, 0, 1, at);
    } finally {
      await f.close();
    }
    spoiled.push(pod.metadata.name ?? '');
  };

  await fx.patchSpec('spoil', { version: '3.5.0' });
  const blocked = await eventually('UpgradeBlocked RehearsalFailed', async () => {
    const c = await fx.getCluster('spoil');
    return condition(c?.status, 'UpgradeBlocked')?.status === 'True' ? c : undefined;
  }, { timeoutMs: 2 * BOUND, describe: () => `spoiled: ${spoiled.join(', ')}\n${fx.describe(PODS)}` });
  fx.runner.onStart = undefined;
  assert.equal(spoiled.length, 1, `one scratch pod started: ${spoiled.join(', ')}`);
  assert.equal(condition(blocked.status, 'UpgradeBlocked')?.reason, 'RehearsalFailed');
  const up = blocked.status?.upgrade;
  assert.equal(up?.state, 'Blocked');
  assert.equal(up?.rehearsal?.outcome, 'Failed');
  assert.deepEqual(up?.membersDone, []);

  const events = await fx.eventsWith('spoil', 'UpgradeBlocked');
  const warning = events.find((e) => e.reason === 'UpgradeBlocked');
  assert.equal(warning?.type, 'Warning');
  assert.match(warning?.message ?? '', /no member was touched/);
  assert.match(warning?.message ?? '', /scratch member log \(last lines\):\n[\s\S]*restore: /, warning?.message);
  assert.ok(!events.some((e) => e.reason === 'RehearsalPassed' || e.reason === 'MemberUpgradeStarted'), events.map((e) => e.reason).join(', '));

  // The scratch pod ran the target image's member (the init container only) and is deleted.
  assert.match(fx.runner.initLogsOf(spoiled[0] ?? '', NS), /restore: /);
  assert.equal(fx.runner.runsOf(spoiled[0] ?? '', NS).length, 0, 'the member never started on a failed restore');
  await eventually('the scratch pod deleted', async () => ((await rehearsalPods()).length === 0 ? true : undefined), { timeoutMs: BOUND });
  // No member touched.
  assert.equal(fx.runner.runsOf('spoil-0', NS).length, 1, 'spoil-0 never restarted');
  const c = await fx.getCluster('spoil');
  assert.ok(c?.status?.members.every((m) => m.version === '3.4.0'), JSON.stringify(c?.status?.members));
});
