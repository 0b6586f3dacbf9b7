/**
 * Scheduled backups in local mode (`kvstore-operator local`): a one-member cluster with
 * `spec.backup` every 2 seconds (a 6-field schedule) and `retention.maxCount: 2` takes backups
 * that verify (the file's SHA-256 trailer is the digest of the image before it, as the status
 * says; the revision is the one the data was written at), prunes the older ones (BackupsPruned;
 * exactly the retained files are left), counts them in /metrics; then a destination that cannot
 * be written (a path through a regular file) makes backups fail — reported in status.backups.lastFailure
 * and as BackupFailed Warnings — while the cluster stays Running and not Degraded.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openKv, put } from '../support/processes.js';
import { endpointsOf, eventsIn, eventsWith, LocalOperator, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const MANIFEST = `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: bk
spec:
  size: 1
  version: 3.4.0
  backup:
    schedule: "*/2 * * * * *"
    destination:
      path: nightly # destination
    retention:
      maxCount: 2
`;

function setPath(file: string, path: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace(/path: \S+ # destination/, `path: ${path} # destination`));
}

void test('local mode: scheduled backups are verified, pruned by retention, and a failing destination is reported without blocking', async () => {
  const { file, clusterDir } = writeManifest(MANIFEST, 'bk');
  const op = new LocalOperator(file, clusterDir, ['--metrics-bind-address', '127.0.0.1:0']);
  const running = await waitStatus(file, 'Running with 1 member', (s) => s.phase === 'Running' && s.readyMembers === '1/1', op);
  const kv = openKv(endpointsOf(running)[0]);
  for (let i = 0; i < 20; i++) await put(kv, `k/${i}`, `v${i}`, 10_000);
  kv.close();

  // At least three backups after the writes: the third success prunes down to two.
  await eventsWith(clusterDir, 'BackupsPruned');
  const s = await waitStatus(file, 'two retained backups', (x) => x.backups?.retained.length === 2 && x.backups.lastSuccess !== undefined, op);
  const dir = join(clusterDir, 'nightly');
  const b = s.backups!;
  const last = b.lastSuccess!;
  assert.equal(last.uri, join(dir, last.name));
  assert.ok(last.revision >= 20, `revision ${last.revision}`);
  const bytes = readFileSync(last.uri);
  assert.equal(bytes.length, last.size);
  const image = bytes.subarray(0, bytes.length - 32);
  assert.equal(createHash('sha256').update(image).digest('hex'), last.sha256);
  assert.equal(bytes.subarray(bytes.length - 32).toString('hex'), last.sha256);
  const onDisk = readdirSync(dir).filter((n) => n.endsWith('.db')).sort();
  // A backup may have been taken since that status: the retained ones are the newest on disk.
  for (const r of b.retained) assert.ok(onDisk.includes(r.name), `${r.name} in ${onDisk.join(', ')}`);
  assert.ok(onDisk.length <= 3, onDisk.join(', '));
  assert.ok(!readdirSync(dir).some((n) => n.endsWith('.part')), 'no .part file left');
  const taken = eventsIn(clusterDir).filter((e) => e.reason === 'BackupTaken');
  assert.ok(taken.length >= 3, `${taken.length} BackupTaken`);

  const metrics = await (await fetch(await op.metricsUrl())).text();
  assert.match(metrics, /^kvstore_operator_backup_total\{namespace="",cluster="bk",result="success"\} ([3-9]|\d\d+)$/m, metrics);
  assert.match(metrics, /^kvstore_operator_backup_duration_seconds_count\{namespace="",cluster="bk"\} [1-9]\d*$/m);
  assert.match(metrics, /^kvstore_operator_backup_last_success_timestamp_seconds\{namespace="",cluster="bk"\} \d+/m);
  assert.match(metrics, /^kvstore_operator_backup_bytes\{namespace="",cluster="bk"\} [1-9]\d*$/m);

  // An unwritable destination: a directory below a regular file.
  writeFileSync(join(clusterDir, 'not-a-dir'), 'x');
  setPath(file, 'not-a-dir/backups');
  const failed = await waitStatus(file, 'a backup failure in the status', (x) => x.backups?.lastFailure !== undefined && x.backups.lastFailure.time > last.time, op);
  assert.match(failed.backups!.lastFailure!.reason, /not-a-dir/);
  const warnings = (await eventsWith(clusterDir, 'BackupFailed')).filter((e) => e.reason === 'BackupFailed');
  assert.equal(warnings[0].type, 'Warning');
  // Not blocking: the cluster stays Running, not Degraded, and the last success is kept.
  const after = await waitStatus(file, 'a second failure, still Running', (x) => x.backups?.lastFailure !== undefined && x.backups.lastFailure.time > failed.backups!.lastFailure!.time, op);
  assert.equal(after.phase, 'Running');
  assert.equal(after.conditions.find((c) => c.type === 'Degraded')?.status, 'False');
  assert.ok(after.backups?.lastSuccess !== undefined);
  const metricsAfter = await (await fetch(await op.metricsUrl())).text();
  assert.match(metricsAfter, /^kvstore_operator_backup_total\{namespace="",cluster="bk",result="failure"\} [1-9]\d*$/m);

  assert.equal(await op.stop('SIGINT'), 0);
});
