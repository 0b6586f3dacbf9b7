// Table tests of the scheduled-backup planner (operator/controller/backup/planner.ts) through
// reconcile(): when a backup is due, what waits, how outcomes are recorded, retention.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { BackupSpec, BackupStatus, KvstoreClusterStatus, RetainedBackup } from '../../../operator/api/types.js';
import type { BackupOutcome } from '../../../operator/controller/backup/outcome.js';
import type { Observed } from '../../../operator/controller/model.js';
import { cluster, healthy, kinds, member, NOW, reasons, status, withMember } from '../controller/fixtures.js';

// NOW is 2026-03-01T10:00:00Z; the schedule fires every hour at :00.
const HOURLY: BackupSpec = { schedule: '0 * * * *', destination: {}, retention: { maxCount: 2 }, suspend: false };
const NAME = 'demo-20260301T100000Z.db';
const SHA = 'a'.repeat(64);

const withBackups = (b: BackupStatus, over: Partial<KvstoreClusterStatus> = {}): KvstoreClusterStatus => status({ backups: b, ...over });
const due: BackupStatus = { schedule: HOURLY.schedule, nextRun: NOW, retained: [] };
const stored = (time: string): RetainedBackup => ({ name: `demo-${time.replace(/[-:]/g, '')}.db`, uri: `/b/demo-${time.replace(/[-:]/g, '')}.db`, time, size: 100 });
const success = (over: Partial<BackupOutcome> = {}): BackupOutcome =>
  ({
    ok: true,
    name: NAME,
    record: { name: NAME, uri: `/b/${NAME}`, time: '2026-03-01T10:00:01Z', revision: 100, sha256: SHA, size: 4096, member: 'demo-0' },
    stored: [stored('2026-03-01T08:00:00Z'), stored('2026-03-01T09:00:00Z'), stored('2026-03-01T10:00:00Z')],
    seconds: 0.5,
    ...over,
  }) as BackupOutcome;
const attempted: BackupStatus = { schedule: HOURLY.schedule, nextRun: '2026-03-01T11:00:00Z', lastAttempt: { name: NAME, time: NOW }, retained: [] };
const at = (o: Observed, now: string): Observed => ({ ...o, now });

void test('backup: first pass with spec.backup computes nextRun (the next scheduled time), takes nothing', () => {
  const plan = reconcile(cluster({ backup: HOURLY }, status()), healthy('3.4.0'));
  assert.deepEqual(kinds(plan), []);
  assert.deepEqual(plan.status.backups, { schedule: '0 * * * *', nextRun: '2026-03-01T11:00:00Z', retained: [] });
  assert.equal(plan.requeueAfterSeconds, 30); // the steady poll comes first; 3600 s until the backup
});

void test('backup: not due before nextRun; requeued for nextRun when sooner than the steady poll', () => {
  const b = { ...due, nextRun: '2026-03-01T10:00:10Z' };
  const plan = reconcile(cluster({ backup: HOURLY }, withBackups(b)), healthy('3.4.0'));
  assert.deepEqual(kinds(plan), []);
  assert.equal(plan.status.backups?.nextRun, '2026-03-01T10:00:10Z');
  assert.equal(plan.requeueAfterSeconds, 10);
});

void test('backup: due → TakeBackup from the leader, lastAttempt recorded, nextRun moves to the next time', () => {
  const plan = reconcile(cluster({ backup: HOURLY }, withBackups(due)), healthy('3.4.0', 3, 1));
  assert.deepEqual(plan.actions, [{ kind: 'TakeBackup', member: 'demo-1', clientURL: 'http://127.0.0.11:2379', name: NAME }]);
  assert.deepEqual(plan.status.backups, attempted);
  assert.equal(plan.requeueAfterSeconds, 1);
  assert.deepEqual(plan.events, []);
});

void test('backup: several missed times (operator down) make one backup, then the next time after now', () => {
  const plan = reconcile(cluster({ backup: HOURLY }, withBackups({ ...due, nextRun: '2026-03-01T06:00:00Z' })), at(healthy('3.4.0'), '2026-03-01T10:20:00Z'));
  assert.deepEqual(kinds(plan), ['TakeBackup']);
  assert.equal(plan.status.backups?.nextRun, '2026-03-01T11:00:00Z');
});

void test('backup: success recorded (BackupTaken), retention by count prunes the oldest (PruneBackups, BackupsPruned)', () => {
  const o = { ...healthy('3.4.0'), now: '2026-03-01T10:00:02Z', backupOutcome: success() };
  const plan = reconcile(cluster({ backup: HOURLY }, withBackups(attempted)), o);
  assert.deepEqual(plan.actions, [{ kind: 'PruneBackups', names: ['demo-20260301T080000Z.db'] }]);
  assert.deepEqual(reasons(plan), ['BackupTaken', 'BackupsPruned']);
  const b = plan.status.backups;
  assert.equal(b?.lastSuccess?.sha256, SHA);
  assert.equal(b?.lastSuccess?.revision, 100);
  assert.deepEqual(b?.retained.map((r) => r.name), ['demo-20260301T090000Z.db', NAME]);
  assert.equal(b?.nextRun, '2026-03-01T11:00:00Z');
  // Seen again (the status write raced): not recorded twice.
  const again = reconcile(cluster({ backup: HOURLY }, plan.status), o);
  assert.deepEqual(again.events, []);
  assert.deepEqual(kinds(again), []);
});

void test('backup: retention by age prunes what is older than maxAgeHours, never the backup just taken', () => {
  const spec = { ...HOURLY, retention: { maxCount: 10, maxAgeHours: 1 } };
  const o = { ...healthy('3.4.0'), now: '2026-03-01T10:00:02Z', backupOutcome: success() };
  const plan = reconcile(cluster({ backup: spec }, withBackups(attempted)), o);
  assert.deepEqual(plan.actions, [{ kind: 'PruneBackups', names: ['demo-20260301T080000Z.db', 'demo-20260301T090000Z.db'] }]);
  assert.deepEqual(plan.status.backups?.retained.map((r) => r.name), [NAME]);
});

void test('backup: a failure is recorded (BackupFailed Warning), does not degrade the cluster, and is retried at the next time', () => {
  const failed: BackupOutcome = { ok: false, name: NAME, time: '2026-03-01T10:00:01Z', error: 'EACCES: permission denied', seconds: 0.1 };
  const plan = reconcile(cluster({ backup: HOURLY }, withBackups(attempted)), { ...healthy('3.4.0'), now: '2026-03-01T10:00:02Z', backupOutcome: failed });
  assert.deepEqual(kinds(plan), []);
  assert.deepEqual(plan.events.map((e) => [e.type, e.reason]), [['Warning', 'BackupFailed']]);
  assert.deepEqual(plan.status.backups?.lastFailure, { name: NAME, time: '2026-03-01T10:00:01Z', reason: 'EACCES: permission denied' });
  assert.equal(plan.status.phase, 'Running');
  assert.equal(plan.status.conditions.find((c) => c.type === 'Degraded')?.status, 'False');
  // Later in the same hour: not due.
  const later = reconcile(cluster({ backup: HOURLY }, plan.status), at(healthy('3.4.0'), '2026-03-01T10:30:00Z'));
  assert.deepEqual(kinds(later), []);
  // At the next time: taken again.
  const next = reconcile(cluster({ backup: HOURLY }, plan.status), at(healthy('3.4.0'), '2026-03-01T11:00:00Z'));
  assert.deepEqual(kinds(next), ['TakeBackup']);
});

void test('backup: no ready leader → a failure at once (BackupFailed), next try at the next time', () => {
  const noLeader = withMember(healthy('3.4.0', 3, 0), member(0, '3.4.0', { probe: { isLeader: true, healthy: false } }));
  const plan = reconcile(cluster({ backup: HOURLY }, withBackups(due)), noLeader);
  assert.equal(kinds(plan).includes('TakeBackup'), false);
  assert.deepEqual(reasons(plan), ['BackupFailed']);
  assert.equal(plan.status.backups?.lastFailure?.reason, 'no ready leader to stream the backup from');
  assert.equal(plan.status.backups?.nextRun, '2026-03-01T11:00:00Z');
});

void test('backup: an upgrade step in the same pass wins; the backup stays due and is looked at again soon', () => {
  const plan = reconcile(cluster({ version: '3.5.0', backup: HOURLY }, withBackups(due)), healthy('3.4.0'));
  assert.equal(kinds(plan).includes('TakeBackup'), false);
  assert.equal(kinds(plan).includes('TakeSnapshot'), true);
  assert.deepEqual(plan.status.backups, due);
  assert.ok((plan.requeueAfterSeconds ?? 99) <= 5);
});

void test('backup: not taken while an upgrade is snapshotting', () => {
  const up = { from: '3.4.0', to: '3.5.0', state: 'Snapshotting' as const, membersDone: [], startedAt: NOW };
  const plan = reconcile(cluster({ version: '3.5.0', backup: HOURLY }, withBackups(due, { upgrade: up })), healthy('3.4.0'));
  assert.equal(kinds(plan).includes('TakeBackup'), false);
  assert.equal(plan.status.backups?.nextRun, NOW);
});

void test('backup: a membership step in the same pass wins', () => {
  const o = healthy('3.4.0');
  const scaling: Observed = { ...o, members: [...o.members, member(3, '', { exists: false, running: false, probe: null }), member(4, '', { exists: false, running: false, probe: null })] };
  const plan = reconcile(cluster({ size: 5, backup: HOURLY }, withBackups(due)), scaling);
  assert.deepEqual(kinds(plan), ['AddLearner', 'EnsureObjects']);
  assert.deepEqual(plan.status.backups, due);
});

void test('backup: suspend and paused take nothing (status kept)', () => {
  const suspended = reconcile(cluster({ backup: { ...HOURLY, suspend: true } }, withBackups(due)), healthy('3.4.0'));
  assert.deepEqual(kinds(suspended), []);
  assert.deepEqual(suspended.status.backups, due);
  const paused = reconcile(cluster({ backup: HOURLY, paused: true }, withBackups(due)), healthy('3.4.0'));
  assert.deepEqual(kinds(paused), []);
});

void test('backup: a changed schedule recomputes nextRun; spec.backup removed keeps the history without nextRun', () => {
  const every5 = { ...HOURLY, schedule: '*/5 * * * *' };
  const changed = reconcile(cluster({ backup: every5 }, withBackups({ ...due, nextRun: '2026-03-02T00:00:00Z' })), healthy('3.4.0'));
  assert.equal(changed.status.backups?.nextRun, '2026-03-01T10:05:00Z');
  assert.deepEqual(kinds(changed), []);
  const removed = reconcile(cluster({}, withBackups({ ...attempted, lastFailure: { time: NOW, reason: 'x' } })), healthy('3.4.0'));
  assert.deepEqual(removed.status.backups, { lastAttempt: attempted.lastAttempt, lastFailure: { time: NOW, reason: 'x' }, retained: [] });
});

void test('backup: a 6-field schedule (seconds) runs more often than once a minute', () => {
  const fast = { ...HOURLY, schedule: '*/2 * * * * *' };
  const first = reconcile(cluster({ backup: fast }, status()), healthy('3.4.0'));
  assert.equal(first.status.backups?.nextRun, '2026-03-01T10:00:02Z');
  assert.equal(first.requeueAfterSeconds, 2);
  const taken = reconcile(cluster({ backup: fast }, first.status), at(healthy('3.4.0'), '2026-03-01T10:00:02Z'));
  assert.deepEqual(kinds(taken), ['TakeBackup']);
  assert.equal(taken.status.backups?.nextRun, '2026-03-01T10:00:04Z');
});
