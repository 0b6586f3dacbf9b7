// A cluster with auth enabled on Kubernetes (in-process operator, test API server, a real kvstore
// pod): spec.auth names a Secret with the root credentials; once the users turn auth on, the
// operator still observes the cluster as root (ready, Running), and a rolling upgrade 3.4 → 3.5 is
// refused (AuthUnsupported: UpgradeBlocked, one Warning event, the pod untouched).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from '../../../ctl/client/index.js';
import { eventually } from '../../support/eventually.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
  await fx.startOperator();
});
after(async () => {
  await fx.close();
});

void test('auth enabled: observed as root; 3.4.0 → 3.5.0 refused (AuthUnsupported), nothing touched', { timeout: 3 * BOUND }, async () => {
  await fx.createSecret('guarded-root', { username: 'root', password: 'r00t-pw' });
  await fx.createCluster('guarded', { size: 1, version: '3.4.0', auth: { secretName: 'guarded-root' } });
  await eventually('Running at 3.4.0', async () => {
    const c = await fx.getCluster('guarded');
    return c?.status?.phase === 'Running' && c.status.readyMembers === '1/1' ? c : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(['guarded-0']) });

  const [endpoint] = await fx.endpoints(['guarded-0']);
  const c = createClient({ endpoints: [`http://${endpoint}`], dialTimeoutMs: 3000, commandTimeoutMs: 5000 });
  try {
    for (const r of [await c.auth.userAdd('root', 'r00t-pw'), await c.auth.userGrantRole('root', 'root'), await c.auth.enable()]) assert.ok(r.ok, r.ok ? '' : r.error.message);
    assert.equal((await c.kv.get('x')).ok, false, 'auth is on');
  } finally {
    c.close();
  }
  const uidBefore = ((await (await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/pods/guarded-0`)).json()) as { metadata: { uid: string } }).metadata.uid;

  await fx.patchSpec('guarded', { version: '3.5.0' });
  const blocked = await eventually('UpgradeBlocked', async () => {
    const x = await fx.getCluster('guarded');
    return condition(x?.status, 'UpgradeBlocked')?.status === 'True' ? x : undefined;
  }, { timeoutMs: BOUND });
  assert.equal(condition(blocked.status, 'UpgradeBlocked')?.reason, 'AuthUnsupported');
  assert.equal(blocked.status?.readyMembers, '1/1', 'still observed (as root) with auth on');
  assert.equal(blocked.status?.upgrade, undefined);
  const events = await fx.eventsWith('guarded', 'UpgradeBlocked');
  const warnings = events.filter((e) => e.reason === 'UpgradeBlocked');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]?.type, 'Warning');
  assert.match(warnings[0]?.message ?? '', /auth is enabled/);
  const pod = (await (await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/pods/guarded-0`)).json()) as { metadata: { uid: string }; spec: { containers: { image: string }[] } };
  assert.equal(pod.metadata.uid, uidBefore, 'the pod was not restarted');
  assert.equal(pod.spec.containers[0]?.image, 'kvstore/kvstore:3.4.0');
});
