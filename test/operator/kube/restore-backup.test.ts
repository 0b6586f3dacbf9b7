// spec.restoreFrom.backup on Kubernetes with an S3 backup (in-process API server and S3
// endpoint, real kvstore pods whose init containers run as processes): cluster A backs up every
// 2 s to S3 with credentials from a Secret; once a backup holds its keys, cluster B is created
// with `restoreFrom: {backup: {cluster: A}}` — the operator downloads A's last backup with A's
// destination and Secret into `<backup-dir>/.staging/<namespace>/restore/B/`, checks it against
// the recorded SHA-256, and B's pod is restored from it through GET /restore: B serves A's keys at
// the backup's revision under a new cluster id.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { KvstoreClusterStatus } from '../../../operator/api/types.js';
import { eventually } from '../../support/eventually.js';
import { ctlFor } from '../../support/processes.js';
import { startFakeS3, type FakeS3 } from '../backup/fake-s3.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
let fx: KubeFixture;
let s3: FakeS3;

before(async () => {
  fx = await startFixture();
  s3 = await startFakeS3();
});
after(async () => {
  await fx.close();
  await s3.close();
});

interface Got { header: { cluster_id: string | number; revision: string | number }; kvs?: { key: string; value: string; mod_revision: number }[] }
const getJson = async (endpoint: string): Promise<Got> => JSON.parse(await ctlFor(endpoint).ok(['get', 'k/', '--prefix', '-w', 'json'])) as Got;

async function statusWhen(name: string, what: string, ok: (s: KvstoreClusterStatus) => boolean, pods: string[]): Promise<KvstoreClusterStatus> {
  return eventually(what, async () => {
    const s = (await fx.getCluster(name))?.status;
    return s !== undefined && ok(s) ? s : undefined;
  }, { timeoutMs: BOUND, describe: () => `${fx.describe(pods)}\n${pods.map((p) => fx.runner.initLogsOf(p, NS)).join('\n')}` });
}

void test('a cluster restored from another cluster\'s S3 backup', { timeout: 4 * BOUND }, async () => {
  await fx.startOperator();
  await fx.createSecret('ka-s3', { AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK' });
  const destination = { s3: { bucket: 'kv-backups', prefix: 'ka', endpoint: s3.url, credentialsSecret: 'ka-s3' } };
  await fx.createCluster('ka', { size: 1, version: '3.4.0', backup: { schedule: '*/2 * * * * *', destination, retention: { maxCount: 2 } } });
  await statusWhen('ka', 'ka Running', (s) => s.phase === 'Running', ['ka-0']);
  const [srcEp] = await fx.endpoints(['ka-0']);
  const ctl = ctlFor(srcEp!);
  for (const [k, v] of [['k/1', 'one'], ['k/2', 'two'], ['k/2', 'two again']]) await ctl.ok(['put', k, v]);
  const src = await getJson(srcEp!);
  const written = Number(src.header.revision);
  const a = await statusWhen('ka', 'an S3 backup of ka after the writes', (s) => (s.backups?.lastSuccess?.revision ?? 0) >= written, ['ka-0']);
  const backup = a.backups!.lastSuccess!;
  assert.match(backup.uri, /^s3:\/\/kv-backups\/ka\/ka-\d{8}T\d{6}Z\.db$/);

  await fx.createCluster('kb', { size: 1, version: '3.4.0', restoreFrom: { backup: { cluster: 'ka' } } });
  const done = await statusWhen('kb', 'kb restored and Running', (s) => s.phase === 'Running' && s.restore?.restoredAt !== undefined, ['kb-0']);
  assert.equal(done.restore?.source, `backup:${NS}/ka`);
  assert.equal(done.restore?.revision, written);
  assert.equal(condition(done, 'RestoreBlocked')?.reason, 'Restored');
  // The backup picked may be a newer one than `backup` (no writes since: the same revision).
  const staged = done.restore!.file;
  assert.ok(staged.startsWith(join(fx.snapshotDir, 'backups', '.staging', NS, 'restore', 'kb') + '/'), staged);
  assert.ok(existsSync(staged));
  assert.match(fx.runner.initLogsOf('kb-0', NS), /restored from/);
  const [dstEp] = await fx.endpoints(['kb-0']);
  const got = await getJson(dstEp!);
  assert.equal(Number(got.header.revision), written);
  assert.notEqual(String(got.header.cluster_id), String(src.header.cluster_id));
  assert.deepEqual(got.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]), src.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]));

  // A backup whose object is gone: refused before anything is created.
  const gone = `kb-gone`;
  await fx.createCluster(gone, { size: 1, version: '3.4.0', restoreFrom: { backup: { cluster: 'ka', name: 'ka-20000101T000000Z.db' } } });
  const refused = await statusWhen(gone, 'kb-gone refused', (s) => condition(s, 'RestoreBlocked')?.status === 'True', []);
  assert.equal(condition(refused, 'RestoreBlocked')?.reason, 'BackupNotFound');
  assert.equal((await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/${gone}`)).status, 404);
});
