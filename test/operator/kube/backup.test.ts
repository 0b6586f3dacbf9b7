// Scheduled backups on Kubernetes (in-process API server, real kvstore pods, the operator as
// `kvstore-operator run` wires it): a one-member cluster backs up every 2 s to an S3 endpoint
// (in-process) with credentials from a Secret, retention keeps 2 (BackupsPruned, the bucket holds
// only the retained objects plus at most one newer); moved to a directory destination, the
// backups land in `<backup-dir>/<namespace>/<path>/`; a missing credentials Secret is reported in
// status.backups.lastFailure and as BackupFailed while the cluster stays Running.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KvstoreClusterStatus } from '../../../operator/api/types.js';
import { eventually } from '../../support/eventually.js';
import { startFakeS3, type FakeS3 } from '../backup/fake-s3.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 90_000;
const PODS = ['bk-0'];
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

async function statusWhen(what: string, ok: (s: KvstoreClusterStatus) => boolean): Promise<KvstoreClusterStatus> {
  return eventually(what, async () => {
    const s = (await fx.getCluster('bk'))?.status;
    return s !== undefined && ok(s) ? s : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
}

void test('scheduled backups to S3 and to the backup volume; a failure does not block', { timeout: 4 * BOUND }, async () => {
  await fx.startOperator();
  await fx.createSecret('bk-s3', { AWS_ACCESS_KEY_ID: 'AK', AWS_SECRET_ACCESS_KEY: 'SK' });
  const s3Destination = { s3: { bucket: 'kv-backups', prefix: 'team/bk', endpoint: s3.url, credentialsSecret: 'bk-s3' } };
  await fx.createCluster('bk', { size: 1, version: '3.4.0', backup: { schedule: '*/2 * * * * *', destination: s3Destination, retention: { maxCount: 2 } } });

  await fx.eventsWith('bk', 'BackupsPruned');
  const pruned = await statusWhen('two retained backups in S3', (s) => s.backups?.retained.length === 2 && s.backups.lastSuccess !== undefined);
  const last = pruned.backups!.lastSuccess!;
  assert.match(last.uri, /^s3:\/\/kv-backups\/team\/bk\/bk-\d{8}T\d{6}Z\.db$/);
  assert.match(last.sha256, /^[0-9a-f]{64}$/);
  const o = s3.objects.get(last.uri.slice('s3://'.length));
  assert.ok(o !== undefined, `${last.uri} in ${[...s3.objects.keys()].join(', ')}`);
  assert.equal(o.body.length, last.size);
  assert.equal(o.metadata.sha256, last.sha256);
  assert.ok(s3.objects.size <= 3, [...s3.objects.keys()].join(', '));
  for (const r of pruned.backups!.retained) assert.ok(s3.objects.has(r.uri.slice('s3://'.length)), r.uri);
  assert.equal(pruned.phase, 'Running');

  // A directory on the operator's backup volume.
  await fx.patchSpec('bk', { backup: { destination: { s3: null, path: 'nightly' } } });
  const dir = join(fx.snapshotDir, 'backups', NS, 'nightly');
  const onVolume = await statusWhen('a backup on the volume', (s) => s.backups?.lastSuccess?.uri.startsWith(dir) === true);
  assert.ok(existsSync(onVolume.backups!.lastSuccess!.uri));
  assert.ok(readdirSync(dir).every((n) => /^bk-\d{8}T\d{6}Z\.db$/.test(n)), readdirSync(dir).join(', '));

  // S3 credentials that cannot be read: a failure in the status, the cluster unaffected.
  await fx.patchSpec('bk', { backup: { destination: { path: null, s3: { ...s3Destination.s3, credentialsSecret: 'missing' } } } });
  const failed = await statusWhen('a backup failure', (s) => /Secret missing/.test(s.backups?.lastFailure?.reason ?? ''));
  const warnings = (await fx.eventsWith('bk', 'BackupFailed')).filter((e) => e.reason === 'BackupFailed');
  assert.equal(warnings[0]?.type, 'Warning');
  assert.equal(failed.phase, 'Running');
  assert.equal(condition(failed, 'Degraded')?.status, 'False');
});
