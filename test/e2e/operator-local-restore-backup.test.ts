/**
 * `kvstore-operator local`: a cluster restored from another cluster's scheduled backup. Cluster A
 * (one member) backs up every 2 seconds into `<A>.kvstore/backups`; once a backup is taken after
 * its keys were written, A's operator stops (its manifest keeps `status.backups`). Cluster B,
 * whose manifest lies beside A's, is created with `restoreFrom: {backup: {cluster: A}}`: the
 * operator reads A's `status.backups.lastSuccess`, checks the file (trailer, the recorded
 * SHA-256) and B comes up Running with A's keys at that backup's revision, under a new cluster
 * id; status.restore names the source and the backup's sha256. A backup name A does not record is
 * refused (BackupNotFound) before any member exists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KvstoreClusterStatus } from '../../operator/api/types.js';
import { ctlFor, makeTempDir } from '../support/processes.js';
import { endpointsOf, eventsWith, LocalOperator, waitStatus } from '../operator/local/local-operator.js';

const header = (name: string): string => `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: ${name}
spec:
  size: 1
  version: 3.4.0
`;

const running = (s: KvstoreClusterStatus): boolean => s.phase === 'Running' && s.readyMembers === '1/1';
const condition = (s: KvstoreClusterStatus, type: string) => s.conditions.find((c) => c.type === type);

interface Got { header: { cluster_id: string | number; revision: string | number }; kvs?: { key: string; value: string; mod_revision: number }[] }
const getJson = async (endpoint: string): Promise<Got> => JSON.parse(await ctlFor(endpoint).ok(['get', 'k/', '--prefix', '-w', 'json'])) as Got;

void test('local mode: a cluster created with restoreFrom.backup serves the source\'s keys at its backup\'s revision', async () => {
  const dir = makeTempDir('restore-backup');
  const aFile = join(dir, 'rba.yaml');
  writeFileSync(aFile, `${header('rba')}  backup:\n    schedule: "*/2 * * * * *"\n    retention:\n      maxCount: 3\n`);
  const a = new LocalOperator(aFile, join(dir, 'rba.kvstore'));
  let src: Got;
  let backup: NonNullable<NonNullable<KvstoreClusterStatus['backups']>['lastSuccess']>;
  try {
    const up = await waitStatus(aFile, 'A Running', running, a);
    const ctl = ctlFor(endpointsOf(up)[0]!);
    for (const [k, v] of [['k/1', 'one'], ['k/2', 'two'], ['k/3', 'three'], ['k/2', 'two again']]) await ctl.ok(['put', k, v]);
    await ctl.ok(['del', 'k/3']);
    src = await getJson(endpointsOf(up)[0]!);
    const written = Number(src.header.revision);
    const s = await waitStatus(aFile, 'a backup of A after the writes', (x) => (x.backups?.lastSuccess?.revision ?? 0) >= written, a);
    backup = s.backups!.lastSuccess!;
    assert.equal(backup.revision, written, 'nothing was written since');
    assert.equal(backup.uri, join(dir, 'rba.kvstore', 'backups', backup.name));
  } finally {
    await a.stop('SIGTERM');
  }

  const bFile = join(dir, 'rbb.yaml');
  writeFileSync(bFile, `${header('rbb')}  restoreFrom:\n    backup:\n      cluster: rba\n`);
  const b = new LocalOperator(bFile, join(dir, 'rbb.kvstore'));
  try {
    const up = await waitStatus(bFile, 'B restored and Running', (s) => running(s) && s.restore?.restoredAt !== undefined, b, 180_000);
    assert.equal(up.restore?.source, 'backup:rba');
    assert.equal(up.restore?.file, backup.uri);
    assert.equal(up.restore?.sha256, backup.sha256);
    assert.equal(up.restore?.revision, backup.revision);
    assert.equal(condition(up, 'RestoreBlocked')?.reason, 'Restored');
    const got = await getJson(endpointsOf(up)[0]!);
    assert.equal(Number(got.header.revision), backup.revision);
    assert.notEqual(String(got.header.cluster_id), String(src.header.cluster_id), 'a new cluster id');
    assert.deepEqual(got.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]), src.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]));
    await eventsWith(join(dir, 'rbb.kvstore'), 'RestoreCompleted');
  } finally {
    assert.equal(await b.stop('SIGTERM'), 0, b.logs());
  }

  // A backup name A does not record: refused, nothing created.
  const cFile = join(dir, 'rbc.yaml');
  writeFileSync(cFile, `${header('rbc')}  restoreFrom:\n    backup:\n      cluster: rba\n      name: rba-20000101T000000Z.db\n`);
  const c = new LocalOperator(cFile, join(dir, 'rbc.kvstore'));
  try {
    const s = await waitStatus(cFile, 'C refused', (x) => condition(x, 'RestoreBlocked')?.status === 'True', c);
    assert.equal(condition(s, 'RestoreBlocked')?.reason, 'BackupNotFound');
    assert.match(condition(s, 'RestoreBlocked')?.message ?? '', new RegExp(backup.name.replace('.', '\\.')));
    assert.equal(s.phase, 'Pending');
  } finally {
    await c.stop('SIGTERM');
  }
});
