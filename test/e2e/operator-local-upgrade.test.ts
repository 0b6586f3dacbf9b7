/**
 * `kvstore-operator local` end to end: a 3-member 3.4.0 manifest comes up Running; under a
 * continuous write load, editing spec.version to 3.5.0 in the file makes the operator take a
 * snapshot from the leader, restart the followers one at a time and the leader last, and
 * report Completed with cluster version 3.5.0 — no write failed beyond one retry, none lost,
 * the snapshot file matches its SHA-256, the user's comments survive the status writes.
 * Then: an operator SIGKILLed mid-upgrade is restarted, adopts the running members and
 * finishes the same upgrade without a second snapshot.
 *
 * A test that acts at an intermediate point of an upgrade holds the operator there first: v2
 * data and a v2 wait far longer than the test keep the roll at WaitingV2 after the first member
 * until the test sets the version back, or releases the wait by lowering upgrade.v2WaitSeconds
 * to 0 — the roll never moves on by itself while the test acts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { eventually, openKv, readPrefix, unmatchedAcks } from '../support/processes.js';
import type { KvstoreClusterStatus } from '../../operator/api/types.js';
import { RetryingWriter } from '../operator/local/retrying-writer.js';
import { endpointsOf, eventsWith, followMaintenance, LocalOperator, statusIn, statusWrites, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const manifest = (name: string, extra = '', upgrade = '    v2WaitSeconds: 1\n'): string => `# a test cluster (this comment must survive status writes)
apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: ${name}
spec:
  size: 3
  version: 3.4.0 # the version every member runs
${extra}  upgrade:
${upgrade}    memberHealthTimeoutSeconds: 90
`;

function setVersion(file: string, version: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(/version: 3\.\d\.\d # the version every member runs/, `version: ${version} # the version every member runs`);
  assert.notEqual(next, text);
  writeFileSync(file, next);
}

async function versionsOf(endpoints: readonly string[]): Promise<unknown[]> {
  return Promise.all(endpoints.map(async (e) => (await fetch(`http://${e}/version`)).json()));
}

const running = (s: { phase: string; readyMembers: string; clusterVersion: string }): boolean => s.phase === 'Running' && s.readyMembers === '3/3' && s.clusterVersion === '3.4.0';

/** v2 enabled, and a v2 wait after each member that outlasts the test unless it is lowered (setV2Wait). */
const V2_OPTIONS = '  options:\n    enableV2: true\n';
const HELD_V2_WAIT = '    v2WaitSeconds: 3600\n    v2ThresholdBytes: 10\n';

function setV2Wait(file: string, seconds: number): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(/v2WaitSeconds: \d+/, `v2WaitSeconds: ${seconds}`);
  assert.notEqual(next, text);
  writeFileSync(file, next);
}

/** A v2 key larger than the 10-byte threshold, written through `endpoint`. */
async function putV2(endpoint: string): Promise<void> {
  const put = await fetch(`http://${endpoint}/v2/keys/legacy`, { method: 'PUT', body: new URLSearchParams({ value: 'x'.repeat(100) }) });
  assert.ok(put.status === 200 || put.status === 201, String(put.status));
}

/** Upgrading, held at the v2 wait after exactly one member. */
const heldAfterFirst = (s: KvstoreClusterStatus): boolean => s.upgrade?.state === 'WaitingV2' && s.upgrade.membersDone.length === 1;

void test('local mode: a rolling upgrade 3.4.0 → 3.5.0 under a write load, driven by editing the file', async () => {
  const { file, clusterDir } = writeManifest(manifest('up'), 'up');
  const op = new LocalOperator(file, clusterDir, ['--metrics-bind-address', '127.0.0.1:0']);
  const before = await waitStatus(file, 'Running at 3.4.0', running, op);
  const firstRunning = statusWrites(op).find((w) => w.phase === 'Running');
  assert.equal(firstRunning?.clusterVersion, '3.4.0', 'the cluster version of the first Running status the operator wrote');
  const endpoints = endpointsOf(before);
  assert.equal(endpoints.length, 3);
  for (const m of before.members) assert.match(m.clientURL, /^http:\/\/127\.0\.0\.\d+:\d+$/);

  // One put at a time round-robin over the members; a failed put is retried (up to 3 times, under
  // a second in all) on another member — not the one the operator's status says it is taking down.
  const load = new RetryingWriter(endpoints, 'load/');
  const unfollow = followMaintenance(file, (e, on) => load.setMaintenance(e, on));
  setVersion(file, '3.5.0');
  const done = await waitStatus(file, 'upgrade Completed', (s) => s.upgrade?.state === 'Completed', op, 180_000);
  const report = await load.stop();
  unfollow();

  // No write failed beyond its one retry, and every acknowledged write is there.
  assert.deepEqual(report.failed, [], `writes that failed beyond their retries (of ${report.acked.size} acknowledged, ${report.retried} retried)`);
  assert.ok(report.acked.size > 0);
  const kv = openKv(endpoints[0]);
  try {
    const { kvs } = await readPrefix(kv, 'load/');
    assert.deepEqual(unmatchedAcks(report.acked, kvs), []);
  } finally {
    kv.close();
  }

  // The snapshot: taken from the leader before any member was touched, present and valid.
  const snap = done.upgrade?.snapshot;
  assert.ok(snap !== undefined);
  assert.ok(existsSync(snap.file), snap.file);
  const bytes = readFileSync(snap.file);
  assert.equal(bytes.length, snap.size);
  assert.equal(createHash('sha256').update(bytes.subarray(0, bytes.length - 32)).digest('hex'), snap.sha256);
  assert.equal(bytes.subarray(bytes.length - 32).toString('hex'), snap.sha256);

  // Followers first, the leader last, each member once; the snapshot before the first restart.
  const events = await eventsWith(clusterDir, 'UpgradeCompleted');
  const reasons = events.map((e) => e.reason);
  const starts = events.filter((e) => e.reason === 'MemberUpgradeStarted');
  assert.equal(starts.length, 3, reasons.join(' '));
  assert.deepEqual(starts.map((e) => e.message.includes('the leader')), [false, false, true], starts.map((e) => e.message).join('\n'));
  assert.ok(reasons.indexOf('SnapshotTaken') < reasons.indexOf('MemberUpgradeStarted'));
  assert.deepEqual([...(done.upgrade?.membersDone ?? [])].sort(), ['up-0', 'up-1', 'up-2']);
  assert.ok(reasons.includes('UpgradeCompleted'));

  // The operator's own metrics, served in local mode too.
  const metrics = await (await fetch(await op.metricsUrl())).text();
  assert.match(metrics, /^kvstore_operator_upgrades_started_total\{namespace="",cluster="up"\} 1$/m, metrics);
  assert.match(metrics, /^kvstore_operator_upgrades_completed_total\{namespace="",cluster="up"\} 1$/m, metrics);
  assert.match(metrics, /^kvstore_operator_member_upgrade_duration_seconds_count\{namespace="",cluster="up"\} 3$/m, metrics);
  assert.match(metrics, /^kvstore_operator_reconcile_duration_seconds_count\{namespace="",cluster="up"\} [1-9]\d*$/m, metrics);

  // Every member reports cluster version 3.5.0; the status in the file says so too.
  assert.deepEqual(await versionsOf(endpoints), endpoints.map(() => ({ etcdserver: '3.5.0', etcdcluster: '3.5.0' })));
  const final = await waitStatus(file, 'cluster version 3.5.0', (s) => s.clusterVersion === '3.5.0' && s.members.every((m) => m.version === '3.5.0'), op);
  assert.equal(final.downgradeFloor, '3.5');
  const text = readFileSync(file, 'utf8');
  assert.match(text, /# a test cluster \(this comment must survive status writes\)/);
  assert.match(text, /version: 3\.5\.0 # the version every member runs/);

  // After completion a lower version is refused: UpgradeBlocked, nothing touched.
  setVersion(file, '3.4.0');
  const refused = await waitStatus(file, 'downgrade refused', (s) => s.conditions.some((c) => c.type === 'UpgradeBlocked' && c.status === 'True'), op);
  assert.ok(refused.members.every((m) => m.version === '3.5.0'));
  const refusal = (await eventsWith(clusterDir, 'DowngradeRefused')).find((e) => e.reason === 'DowngradeRefused');
  assert.ok(refusal !== undefined && refusal.type === 'Warning');
  assert.ok(refusal.message.includes(snap.file), refusal.message);
  assert.deepEqual(await versionsOf(endpoints), endpoints.map(() => ({ etcdserver: '3.5.0', etcdcluster: '3.5.0' })));

  assert.equal(await op.stop('SIGTERM'), 0);
  assert.equal(statusIn(file)?.upgrade?.state, 'Completed');
});

void test('local mode: v2 data paces the upgrade (v2 wait), and setting the version back while mixed rolls back', async () => {
  const { file, clusterDir } = writeManifest(manifest('vw', V2_OPTIONS, HELD_V2_WAIT), 'vw');
  const op = new LocalOperator(file, clusterDir);
  const before = await waitStatus(file, 'Running at 3.4.0', running, op);
  const endpoints = endpointsOf(before);
  await putV2(endpoints[0]!);

  setVersion(file, '3.5.0');
  // Held here: the v2 wait after the first member outlasts the test.
  const waiting = await waitStatus(file, 'the v2 wait after the first member', heldAfterFirst, op, 120_000);
  assert.ok((await eventsWith(clusterDir, 'V2Wait')).some((e) => e.reason === 'V2Wait'));
  const upgraded = waiting.upgrade?.membersDone[0];
  assert.equal(waiting.members.filter((m) => m.version === '3.5.0').map((m) => m.name).join(), upgraded, 'only the first member runs 3.5.0');

  // Mixed (one member on 3.5.0): going back to 3.4.0 rolls that member back.
  setVersion(file, '3.4.0');
  const back = await waitStatus(file, 'RolledBack', (s) => s.upgrade?.state === 'RolledBack', op, 120_000);
  const after = await waitStatus(file, 'all members on 3.4.0', (s) => s.members.every((m) => m.version === '3.4.0' && m.healthy) && s.clusterVersion === '3.4.0', op);
  assert.equal(back.downgradeFloor, undefined);
  assert.deepEqual(await versionsOf(endpointsOf(after)), [0, 1, 2].map(() => ({ etcdserver: '3.4.0', etcdcluster: '3.4.0' })));
  const reasons = (await eventsWith(clusterDir, 'RollbackCompleted')).map((e) => e.reason);
  assert.ok(reasons.includes('RollbackStarted'), reasons.join(' '));
  const rolled = (await eventsWith(clusterDir, 'RollbackCompleted')).filter((e) => e.reason === 'MemberRollbackStarted');
  assert.equal(rolled.length, 1, rolled.map((e) => e.message).join(' | '));
  assert.ok(rolled[0]?.message.includes(`restarting ${upgraded}`), rolled[0]?.message);
  const got = await fetch(`http://${endpoints[1]}/v2/keys/legacy`);
  assert.equal(got.status, 200);
  assert.equal(await op.stop('SIGTERM'), 0);
});

void test('local mode: an operator killed mid-upgrade is restarted and finishes the same upgrade', async () => {
  const { file, clusterDir } = writeManifest(manifest('re', V2_OPTIONS, HELD_V2_WAIT), 're');
  const first = new LocalOperator(file, clusterDir);
  const before = await waitStatus(file, 'Running at 3.4.0', running, first);
  await putV2(endpointsOf(before)[0]!);
  setVersion(file, '3.5.0');
  // Held at the v2 wait after the first member: no action is in flight when the operator is killed.
  const mid = await waitStatus(file, 'one member upgraded, v2 wait', heldAfterFirst, first, 120_000);
  await first.stop('SIGKILL');

  // The members kept running; a new operator adopts them and carries on from the status: still
  // held at the same wait until the test releases it.
  const second = new LocalOperator(file, clusterDir);
  // Its first pass is through its status write (or found it unchanged) once that is logged: the edit below cannot meet that write.
  await eventually('the second operator adopted the members and finished the status of a pass', () =>
    Promise.resolve(/adopted running member/.test(second.logs()) && /"msg":"status (written|unchanged)"/.test(second.logs()) ? true : undefined));
  const resumed = statusIn(file);
  assert.ok(resumed !== undefined && heldAfterFirst(resumed), JSON.stringify(resumed?.upgrade));
  assert.deepEqual(resumed.upgrade?.membersDone, mid.upgrade?.membersDone);
  setV2Wait(file, 0);
  const done = await waitStatus(file, 'upgrade Completed', (s) => s.upgrade?.state === 'Completed', second, 180_000);
  assert.deepEqual(endpointsOf(done), endpointsOf(before));
  const events = await eventsWith(clusterDir, 'UpgradeCompleted');
  assert.equal(events.filter((e) => e.reason === 'SnapshotTaken').length, 1);
  assert.equal(events.filter((e) => e.reason === 'UpgradeStarted').length, 1);
  assert.equal(events.filter((e) => e.reason === 'MemberUpgradeStarted').length, 3, 'each member restarted once');
  assert.ok(events.some((e) => e.reason === 'V2WaitShortened'));
  assert.equal(done.upgrade?.startedAt, mid.upgrade?.startedAt, 'the same upgrade, resumed');
  assert.deepEqual([...(done.upgrade?.membersDone ?? [])].sort(), ['re-0', 're-1', 're-2']);
  assert.deepEqual(await versionsOf(endpointsOf(done)), [0, 1, 2].map(() => ({ etcdserver: '3.5.0', etcdcluster: '3.5.0' })));
  assert.equal(await second.stop('SIGTERM'), 0);
});
