// spec.restoreFrom on Kubernetes (in-process operator, test API server, real kvstore pods whose
// init containers run as processes): a 1-member cluster's snapshot, saved into the operator's
// snapshot volume, seeds a new 3-member cluster — every pod's init container fetches it from the
// operator (GET /restore, the cluster's token) and restores its data dir; the cluster serves the
// keys at the source's revision under a new cluster id. A missing file creates nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../support/eventually.js';
import { ctlFor } from '../../support/processes.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
});
after(async () => {
  await fx.close();
});

interface Got { header: { cluster_id: string | number; revision: string | number }; kvs?: { key: string; value: string; mod_revision: number }[] }
const getJson = async (endpoint: string): Promise<Got> => JSON.parse(await ctlFor(endpoint).ok(['get', 'k/', '--prefix', '-w', 'json'])) as Got;

void test('a cluster created with spec.restoreFrom.path is restored by its pods\' init containers', { timeout: 4 * BOUND }, async () => {
  await fx.startOperator();
  await fx.createCluster('src', { size: 1, version: '3.4.0' });
  await eventually('src Running', async () => ((await fx.getCluster('src'))?.status?.phase === 'Running' ? true : undefined), { timeoutMs: BOUND, describe: () => fx.describe(['src-0']) });
  const [srcEp] = await fx.endpoints(['src-0']);
  const ctl = ctlFor(srcEp!);
  for (const [k, v] of [['k/1', 'one'], ['k/2', 'two'], ['k/2', 'two again']]) await ctl.ok(['put', k, v]);
  const src = await getJson(srcEp!);
  mkdirSync(join(fx.snapshotDir, NS), { recursive: true });
  await ctl.ok(['snapshot', 'save', join(fx.snapshotDir, NS, 'src.db')]);

  const PODS = ['dst-0', 'dst-1', 'dst-2'];
  await fx.createCluster('dst', { size: 3, version: '3.4.0', restoreFrom: { path: 'src.db' } });
  const done = await eventually('dst restored and Running', async () => {
    const c = await fx.getCluster('dst');
    return c?.status?.phase === 'Running' && c.status.restore?.restoredAt !== undefined ? c : undefined;
  }, { timeoutMs: BOUND, describe: () => `${fx.describe(PODS)}\n${PODS.map((p) => fx.runner.initLogsOf(p, NS)).join('\n')}` });
  assert.equal(done.status?.restore?.revision, Number(src.header.revision));
  assert.equal(condition(done.status, 'RestoreBlocked')?.reason, 'Restored');
  for (const p of PODS) assert.match(fx.runner.initLogsOf(p, NS), /restored from/, p);
  for (const ep of await fx.endpoints(PODS)) {
    const got = await getJson(ep);
    assert.equal(Number(got.header.revision), Number(src.header.revision), ep);
    assert.notEqual(String(got.header.cluster_id), String(src.header.cluster_id));
    assert.deepEqual(got.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]), src.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]));
  }
  const reasons = (await fx.eventsWith('dst', 'RestoreCompleted')).map((e) => e.reason);
  assert.ok(reasons.includes('RestoreStarted'), reasons.join(','));

  await fx.createCluster('gone', { size: 1, version: '3.4.0', restoreFrom: { path: 'nope.db' } });
  const refused = await eventually('gone refused', async () => {
    const c = await fx.getCluster('gone');
    return condition(c?.status, 'RestoreBlocked')?.status === 'True' ? c : undefined;
  }, { timeoutMs: BOUND });
  assert.equal(condition(refused.status, 'RestoreBlocked')?.reason, 'SnapshotMissing');
  assert.equal(refused.status?.phase, 'Pending');
  assert.equal((await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/gone`)).status, 404);
  assert.ok((await fx.eventsWith('gone', 'RestoreFailed')).some((e) => e.reason === 'RestoreFailed' && e.type === 'Warning'));
});
