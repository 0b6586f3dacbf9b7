/**
 * `kvstore-operator local` with `spec.restoreFrom` (issue 17, restore as a spec field):
 * - a 1-member cluster A at 3.4.0 gets keys (a put, an overwrite, a delete), its snapshot is
 *   saved with etcdctl; a 3-member cluster B created with `restoreFrom.path` comes up Running
 *   with every key of A at A's revision, under a new cluster id; status.restore records the
 *   source, revision and sha256; RestoreStarted then RestoreCompleted. An operator restarted on B
 *   does not restore again; editing restoreFrom afterwards is reported (RestoreSourceChanged) and
 *   not acted on;
 * - a copy of the snapshot with one byte flipped, a missing file and a wrong expected sha256 are
 *   refused before any member exists (RestoreBlocked True, phase Pending, Warning RestoreFailed);
 * - a snapshot of a 3.5.0 cluster is refused for a 3.4.0 cluster (SnapshotTooNew): the snapshot
 *   records its cluster version (`cluster/clusterVersion`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { KvstoreClusterStatus } from '../../operator/api/types.js';
import { ctlFor, makeTempDir } from '../support/processes.js';
import { endpointsOf, eventsIn, eventsWith, LocalOperator, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const manifest = (name: string, size: number, version: string, restore = ''): string => `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: ${name}
spec:
  size: ${size}
  version: ${version}
${restore}`;

const running = (size: number) => (s: KvstoreClusterStatus): boolean => s.phase === 'Running' && s.readyMembers === `${size}/${size}`;
const condition = (s: KvstoreClusterStatus, type: string) => s.conditions.find((c) => c.type === type);

interface Header { cluster_id: string | number; revision: string | number }
async function getJson(endpoint: string, key: string, prefix = false): Promise<{ header: Header; kvs?: { key: string; value: string; mod_revision: number }[] }> {
  return JSON.parse(await ctlFor(endpoint).ok(['get', key, ...(prefix ? ['--prefix'] : []), '-w', 'json'])) as { header: Header; kvs?: { key: string; value: string; mod_revision: number }[] };
}

/** A cluster of `size` at `version` with keys k/1..k/3 (k/2 overwritten, k/3 deleted); its snapshot saved with etcdctl. */
async function sourceSnapshot(name: string, version: string): Promise<{ file: string; revision: number; clusterId: string; keys: { key: string; value: string; mod_revision: number }[] }> {
  const { file, clusterDir } = writeManifest(manifest(name, 1, version), name);
  const op = new LocalOperator(file, clusterDir);
  try {
    const s = await waitStatus(file, `${name} Running`, (st) => running(1)(st) && st.clusterVersion === version, op);
    const [ep] = endpointsOf(s);
    const ctl = ctlFor(ep!);
    for (const [k, v] of [['k/1', 'one'], ['k/2', 'two'], ['k/3', 'three'], ['k/2', 'two again']]) await ctl.ok(['put', k, v]);
    await ctl.ok(['del', 'k/3']);
    const got = await getJson(ep!, 'k/', true);
    const snap = join(makeTempDir('restore-src'), `${name}.db`);
    await ctl.ok(['snapshot', 'save', snap]);
    return { file: snap, revision: Number(got.header.revision), clusterId: String(got.header.cluster_id), keys: got.kvs ?? [] };
  } finally {
    await op.stop('SIGTERM');
  }
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

void test('local mode: a cluster created with spec.restoreFrom serves the snapshot\'s keys at its revision under a new cluster id', async () => {
  const src = await sourceSnapshot('rsrc', '3.4.0');
  assert.equal(src.keys.length, 2);
  const bytes = readFileSync(src.file);
  const sha = createHash('sha256').update(bytes.subarray(0, bytes.length - 32)).digest('hex');

  const { file, clusterDir } = writeManifest(manifest('rdst', 3, '3.4.0', `  restoreFrom:\n    path: ${src.file}\n    sha256: "${sha}"\n`), 'rdst');
  let op = new LocalOperator(file, clusterDir);
  const up = await waitStatus(file, 'restored cluster Running', (s) => running(3)(s) && s.restore?.restoredAt !== undefined, op, 180_000);
  assert.equal(up.restore?.source, `path:${src.file}`);
  assert.equal(up.restore?.sha256, sha);
  assert.equal(up.restore?.revision, src.revision);
  assert.equal(condition(up, 'RestoreBlocked')?.status, 'False');
  assert.equal(condition(up, 'RestoreBlocked')?.reason, 'Restored');

  for (const ep of endpointsOf(up)) {
    const got = await getJson(ep, 'k/', true);
    assert.equal(Number(got.header.revision), src.revision, `revision at ${ep}`);
    assert.notEqual(String(got.header.cluster_id), src.clusterId, 'a new cluster id');
    assert.deepEqual(got.kvs?.map((kv) => [kv.key, kv.value, kv.mod_revision]), src.keys.map((kv) => [kv.key, kv.value, kv.mod_revision]));
  }
  assert.deepEqual((await getJson(endpointsOf(up)[0]!, 'k/2')).kvs?.map((kv) => kv.value), [b64('two again')]);
  // The restored cluster takes writes; revisions go on from the snapshot's.
  const ctl = ctlFor(endpointsOf(up)[1]!);
  await ctl.ok(['put', 'k/4', 'four']);
  assert.equal(Number((await getJson(endpointsOf(up)[2]!, 'k/4')).header.revision), src.revision + 1);

  const events = await eventsWith(clusterDir, 'RestoreCompleted');
  const reasons = events.map((e) => e.reason);
  assert.ok(reasons.indexOf('RestoreStarted') >= 0 && reasons.indexOf('RestoreStarted') < reasons.indexOf('RestoreCompleted'), reasons.join(' '));

  // An operator killed and started again adopts the members and restores nothing.
  await op.stop('SIGKILL');
  op = new LocalOperator(file, clusterDir);
  await waitStatus(file, 'Running after the restart', running(3), op);
  // Naming another source afterwards is reported and not acted on.
  writeFileSync(file, readFileSync(file, 'utf8').replace(`path: ${src.file}`, 'path: other.db'));
  const changed = await waitStatus(file, 'RestoreSourceChanged', (s) => condition(s, 'RestoreBlocked')?.reason === 'RestoreSourceChanged', op);
  assert.equal(condition(changed, 'RestoreBlocked')?.status, 'True');
  assert.equal(changed.phase, 'Running');
  assert.equal(changed.restore?.source, `path:${src.file}`);
  await eventsWith(clusterDir, 'RestoreIgnored');
  assert.equal(eventsIn(clusterDir).filter((e) => e.reason === 'RestoreStarted').length, 1);
  assert.equal(Number((await getJson(endpointsOf(up)[0]!, 'k/4')).header.revision), src.revision + 1, 'the data was not restored again');
  assert.equal(await op.stop('SIGTERM'), 0);

  // Refusals, each before any member exists.
  const corrupt = join(makeTempDir('restore-bad'), 'flipped.db');
  copyFileSync(src.file, corrupt);
  const flipped = readFileSync(corrupt);
  flipped[4096 + 100] = flipped[4096 + 100]! ^ 0xff;
  writeFileSync(corrupt, flipped);
  const cases = [
    { name: 'rcorrupt', restore: `    path: ${corrupt}\n`, reason: 'SnapshotCorrupt' },
    { name: 'rmissing', restore: `    path: no-such-snapshot.db\n`, reason: 'SnapshotMissing' },
    { name: 'rwrongsha', restore: `    path: ${src.file}\n    sha256: "${'0'.repeat(64)}"\n`, reason: 'SnapshotCorrupt' },
  ];
  for (const c of cases) await refused(c.name, '3.4.0', `  restoreFrom:\n${c.restore}`, c.reason);
});

async function refused(name: string, version: string, restore: string, reason: string): Promise<void> {
  const { file, clusterDir } = writeManifest(manifest(name, 3, version, restore), name);
  const op = new LocalOperator(file, clusterDir);
  let ok = false;
  try {
    const s = await waitStatus(file, `${name} refused (${reason})`, (st) => condition(st, 'RestoreBlocked')?.status === 'True', op);
    assert.equal(condition(s, 'RestoreBlocked')?.reason, reason, JSON.stringify(s.conditions));
    assert.equal(s.phase, 'Pending');
    assert.equal(condition(s, 'Available')?.status, 'False');
    assert.equal(s.restore, undefined);
    const failed = (await eventsWith(clusterDir, 'RestoreFailed')).filter((e) => e.reason === 'RestoreFailed');
    assert.equal(failed[0]?.type, 'Warning');
    assert.ok(!eventsIn(clusterDir).some((e) => e.reason === 'ClusterCreating'));
    const files = existsSync(clusterDir) ? readdirSync(clusterDir) : [];
    assert.deepEqual(files.filter((f) => f.endsWith('.pid') || f.endsWith('.data')), [], `no member started: ${files.join(' ')}`);
    ok = true;
  } finally {
    const code = await op.stop('SIGTERM');
    if (ok) assert.equal(code, 0, op.logs());
  }
}

void test('local mode: a snapshot of a 3.5 cluster is refused for a 3.4 cluster (SnapshotTooNew)', async () => {
  const src = await sourceSnapshot('rnew', '3.5.0');
  await refused('rold', '3.4.0', `  restoreFrom:\n    path: ${src.file}\n`, 'SnapshotTooNew');
});
