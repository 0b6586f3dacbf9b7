// Table tests of the restore rules (operator/controller/restore/): the decision on a checked
// snapshot, creation from it, refusals before anything exists, completion, and a restoreFrom
// that changes (or appears) once the cluster exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RestoreFrom } from '../../../operator/api/types.js';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { Observed } from '../../../operator/controller/model.js';
import { decideRestore } from '../../../operator/controller/restore/decide.js';
import type { RestoreCheck, SnapshotFacts } from '../../../operator/controller/restore/restore-check.js';
import { needsRestoreCheck } from '../../../operator/controller/restore/restore-source.js';
import { backupsOf, pickBackup, s3Location } from '../../../operator/controller/restore/backups.js';
import { sourceText } from '../../../operator/controller/restore/source.js';
import { cluster, condition, healthy, member, NOW, reasons, spec, status, withMember } from './fixtures.js';

const LATER = '2026-03-01T10:05:00Z';
const SHA = 'a'.repeat(64);
const FROM: RestoreFrom = { path: 'demo-3.4.0-to-3.5.0-20260301T090000Z.db' };
const facts = (over: Partial<SnapshotFacts> = {}): SnapshotFacts => ({ file: '/snap/default/x.db', sha256: SHA, size: 8224, revision: 42, clusterVersion: '3.4.0', ...over });
const ok = (over: Partial<SnapshotFacts> = {}): RestoreCheck => ({ ok: true, facts: facts(over) });
const empty = (check?: RestoreCheck): Observed => ({ now: NOW, objectsExist: false, templateVersion: '', members: [], ...(check === undefined ? {} : { restoreCheck: check }) });

void test('decideRestore: the rules, first that applies', () => {
  const table: [string, Parameters<typeof decideRestore>, string][] = [
    ['not checked yet → wait', [spec({ restoreFrom: FROM }), undefined], 'wait'],
    ['missing → refuse', [spec({ restoreFrom: FROM }), { ok: false, reason: 'SnapshotMissing', message: 'gone' }], 'refuse:SnapshotMissing'],
    ['bad trailer → refuse', [spec({ restoreFrom: FROM }), { ok: false, reason: 'SnapshotCorrupt', message: 'expected sha256' }], 'refuse:SnapshotCorrupt'],
    ['same line → restore', [spec({ restoreFrom: FROM }), ok()], 'restore'],
    ['older line → restore (the members raise its version)', [spec({ restoreFrom: FROM, version: '3.5.0' }), ok({ clusterVersion: '3.3.0' })], 'restore'],
    ['version never decided → restore', [spec({ restoreFrom: FROM }), ok({ clusterVersion: undefined })], 'restore'],
    ['3.5 snapshot into 3.4 → SnapshotTooNew', [spec({ restoreFrom: FROM, version: '3.4.9' }), ok({ clusterVersion: '3.5.0' })], 'refuse:SnapshotTooNew'],
    ['3.5 storage (meta term) into 3.4 → SnapshotTooNew', [spec({ restoreFrom: FROM }), ok({ clusterVersion: undefined, storageVersion: '3.5' })], 'refuse:SnapshotTooNew'],
    ['3.5 snapshot into 3.5 → restore', [spec({ restoreFrom: FROM, version: '3.5.1' }), ok({ clusterVersion: '3.5.0', storageVersion: '3.5' })], 'restore'],
    ['spec sha256 matches → restore', [spec({ restoreFrom: { ...FROM, sha256: SHA } }), ok()], 'restore'],
    ['spec sha256 differs → SnapshotCorrupt', [spec({ restoreFrom: { ...FROM, sha256: 'b'.repeat(64) } }), ok()], 'refuse:SnapshotCorrupt'],
    ['backup record sha256 differs → SnapshotCorrupt', [spec({ restoreFrom: { backup: { cluster: 'a' } } }), { ...ok(), ok: true, recorded: { sha256: 'c'.repeat(64) } } as RestoreCheck], 'refuse:SnapshotCorrupt'],
    ['spec sha256 wins over the record', [spec({ restoreFrom: { backup: { cluster: 'a' }, sha256: SHA } }), { ...ok(), ok: true, recorded: { sha256: 'c'.repeat(64) } } as RestoreCheck], 'restore'],
  ];
  for (const [what, args, want] of table) {
    const d = decideRestore(...args);
    assert.equal(d.kind === 'refuse' ? `refuse:${d.reason}` : d.kind, want, what);
  }
});

void test('restore: a checked snapshot → EnsureObjects with restore, RestoreStarted, status.restore recorded', () => {
  const plan = reconcile(cluster({ restoreFrom: FROM }), empty(ok()));
  assert.deepEqual(plan.actions, [{ kind: 'EnsureObjects', version: '3.4.0', replicas: 3, restore: { file: '/snap/default/x.db', sha256: SHA } }]);
  assert.deepEqual(reasons(plan), ['ClusterCreating', 'RestoreStarted']);
  assert.equal(plan.status.phase, 'Creating');
  assert.deepEqual(plan.status.restore, { source: `path:${FROM.path}`, file: '/snap/default/x.db', sha256: SHA, revision: 42, startedAt: NOW });
  assert.equal(condition(plan, 'RestoreBlocked').status, 'False');
  assert.equal(condition(plan, 'RestoreBlocked').reason, 'Restoring');
});

void test('restore refused: nothing created, phase Pending, RestoreBlocked True, one Warning RestoreFailed', () => {
  for (const check of [
    { ok: false, reason: 'SnapshotMissing', message: 'snapshot /x does not exist' } as RestoreCheck,
    { ok: false, reason: 'SnapshotCorrupt', message: 'expected sha256 [1 2], got [3 4]' } as RestoreCheck,
    ok({ clusterVersion: '3.5.0' }),
  ]) {
    const plan = reconcile(cluster({ restoreFrom: FROM }), empty(check));
    const reason = check.ok ? 'SnapshotTooNew' : check.reason;
    assert.deepEqual(plan.actions, [], reason);
    assert.equal(plan.status.phase, 'Pending');
    assert.equal(plan.status.restore, undefined);
    assert.equal(condition(plan, 'RestoreBlocked').status, 'True');
    assert.equal(condition(plan, 'RestoreBlocked').reason, reason);
    assert.equal(condition(plan, 'Available').status, 'False');
    assert.equal(condition(plan, 'Progressing').reason, reason);
    assert.deepEqual(plan.events.map((e) => [e.type, e.reason]), [['Warning', 'RestoreFailed']]);
    assert.ok(plan.requeueAfterSeconds !== undefined);
    // The next pass with the same refusal: no second event.
    const again = reconcile(cluster({ restoreFrom: FROM }, plan.status), empty(check));
    assert.deepEqual(again.events, []);
    assert.deepEqual(again.actions, []);
  }
  // Fixed (e.g. the file copied in place) → created from it.
  const refused = reconcile(cluster({ restoreFrom: FROM }), empty({ ok: false, reason: 'SnapshotMissing', message: 'gone' }));
  const fixed = reconcile(cluster({ restoreFrom: FROM }, refused.status), empty(ok()));
  assert.deepEqual(reasons(fixed), ['ClusterCreating', 'RestoreStarted']);
});

void test('restore: while the snapshot is being checked → wait, nothing created, no event', () => {
  const plan = reconcile(cluster({ restoreFrom: FROM }), empty());
  assert.deepEqual(plan.actions, []);
  assert.deepEqual(plan.events, []);
  assert.equal(plan.status.phase, 'Pending');
  assert.equal(condition(plan, 'RestoreBlocked').status, 'Unknown');
});

void test('restore: completes once every member is ready (RestoreCompleted once), then never acts again', () => {
  const created = reconcile(cluster({ restoreFrom: FROM }), empty(ok()));
  const starting = withMember(healthy('3.4.0'), member(2, '3.4.0', { probe: null }));
  const wait = reconcile(cluster({ restoreFrom: FROM }, created.status), starting);
  assert.equal(wait.status.restore?.restoredAt, undefined);
  assert.ok(!reasons(wait).includes('RestoreCompleted'));
  const done = reconcile(cluster({ restoreFrom: FROM }, wait.status), { ...healthy('3.4.0'), now: LATER });
  assert.deepEqual(reasons(done), ['ClusterCreated', 'RestoreCompleted']);
  assert.equal(done.status.restore?.restoredAt, LATER);
  assert.equal(condition(done, 'RestoreBlocked').reason, 'Restored');
  const steady = reconcile(cluster({ restoreFrom: FROM }, done.status), healthy('3.4.0'));
  assert.deepEqual(steady.events, []);
  assert.deepEqual(steady.status.restore, done.status.restore);
  // No check is asked for a completed restore, even should the objects vanish.
  assert.equal(needsRestoreCheck(cluster({ restoreFrom: FROM }, done.status), false), false);
  assert.equal(needsRestoreCheck(cluster({ restoreFrom: FROM }, created.status), false), true, 'recorded, never completed: planned again');
  assert.equal(needsRestoreCheck(cluster({ restoreFrom: FROM }), true), false);
  assert.equal(needsRestoreCheck(cluster({}), false), false);
});

void test('restore: restoreFrom changed after the restore → RestoreBlocked True RestoreSourceChanged, one Warning, nothing done', () => {
  const restored = status({ restore: { source: `path:${FROM.path}`, file: '/snap/default/x.db', sha256: SHA, revision: 42, startedAt: NOW, restoredAt: NOW } });
  const changed = reconcile(cluster({ restoreFrom: { path: 'other.db' } }, restored), healthy('3.4.0'));
  assert.deepEqual(changed.actions, []);
  assert.equal(condition(changed, 'RestoreBlocked').status, 'True');
  assert.equal(condition(changed, 'RestoreBlocked').reason, 'RestoreSourceChanged');
  assert.deepEqual(changed.events.map((e) => [e.type, e.reason]), [['Warning', 'RestoreIgnored']]);
  assert.equal(changed.status.phase, 'Running');
  assert.deepEqual(changed.status.restore, restored.restore);
  const again = reconcile(cluster({ restoreFrom: { path: 'other.db' } }, changed.status), healthy('3.4.0'));
  assert.deepEqual(again.events, []);
  // Removing restoreFrom is fine: the record stays, the condition says Restored.
  const removed = reconcile(cluster({}, changed.status), healthy('3.4.0'));
  assert.equal(condition(removed, 'RestoreBlocked').status, 'False');
  assert.equal(removed.status.restore?.source, `path:${FROM.path}`);
});

void test('restore: restoreFrom added to a cluster that exists → ClusterExists, nothing done; clusters without restore have no RestoreBlocked', () => {
  const plan = reconcile(cluster({ restoreFrom: FROM }, status()), healthy('3.4.0'));
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'RestoreBlocked').reason, 'ClusterExists');
  assert.deepEqual(reasons(plan), ['RestoreIgnored']);
  const plain = reconcile(cluster({}, status()), healthy('3.4.0'));
  assert.ok(!plain.status.conditions.some((c) => c.type === 'RestoreBlocked'));
  assert.equal(plain.status.restore, undefined);
});

void test('restore: paused → nothing created even with a checked snapshot', () => {
  const plan = reconcile(cluster({ restoreFrom: FROM, paused: true }), empty(ok()));
  assert.deepEqual(plan.actions, []);
});

void test('sourceText and the backups a restore reads', () => {
  assert.equal(sourceText({ path: 'a.db' }, 'ns'), 'path:a.db');
  assert.equal(sourceText({ backup: { cluster: 'a' } }, 'ns'), 'backup:ns/a');
  assert.equal(sourceText({ backup: { cluster: 'a', namespace: 'o', name: 'f.db' } }, 'ns'), 'backup:o/a/f.db');
  assert.equal(sourceText({ backup: { cluster: 'a' } }, ''), 'backup:a');
  // Records as the backup controller writes them (api/schema-backup.ts): picked by name, located by uri.
  const view = backupsOf({
    backups: {
      lastSuccess: { name: 'a-20260301T020000Z.db', uri: '/s/ns/a-20260301T020000Z.db', time: '2026-03-01T02:00:00Z', revision: 9, sha256: SHA, size: 1, member: 'a-0' },
      retained: [
        { name: 'a-20260301T010000Z.db', uri: '/s/ns/a-20260301T010000Z.db', time: '2026-03-01T01:00:00Z', size: 1 },
        { name: 'a-20260301T020000Z.db', uri: '/s/ns/a-20260301T020000Z.db', time: '2026-03-01T02:00:00Z', size: 1 },
        { file: '/old/shape.db' },
        { name: 'no-uri.db' },
      ],
    },
  });
  assert.equal(view?.retained?.length, 2, 'records without name and uri are ignored');
  const latest = pickBackup(view, undefined, 'a');
  assert.ok(latest.ok && latest.record.uri === '/s/ns/a-20260301T020000Z.db' && latest.record.sha256 === SHA && latest.record.revision === 9);
  const named = pickBackup(view, 'a-20260301T010000Z.db', 'a');
  assert.ok(named.ok && named.record.uri === '/s/ns/a-20260301T010000Z.db' && named.record.sha256 === undefined);
  // The retained entry of the last success carries lastSuccess's revision and sha256.
  const namedLast = pickBackup(view, 'a-20260301T020000Z.db', 'a');
  assert.ok(namedLast.ok && namedLast.record.sha256 === SHA && namedLast.record.revision === 9);
  // Only the name picks: a uri or a path is not a name.
  assert.equal(pickBackup(view, '/s/ns/a-20260301T010000Z.db', 'a').ok, false);
  const unknown = pickBackup(view, 'zzz.db', 'a');
  assert.ok(!unknown.ok && unknown.message.includes('known: a-20260301T020000Z.db, a-20260301T010000Z.db'), JSON.stringify(unknown));
  assert.equal(pickBackup(backupsOf({}), undefined, 'a').ok, false);
  assert.equal(backupsOf({ backups: 'x' }), undefined);
  const s3 = backupsOf({ backups: { retained: [{ name: 'x-1.db', uri: 's3://b/p/x-1.db', time: '1', size: 1 }, { name: 'x-3.db', uri: 's3://b/p/x-3.db', time: '3', size: 1 }, { name: 'x-2.db', uri: 'x-2.db', time: '2', size: 1 }] } });
  const onlyRetained = pickBackup(s3, undefined, 'x');
  assert.ok(onlyRetained.ok && onlyRetained.record.uri === 's3://b/p/x-3.db', 'no lastSuccess: the newest retained');
  assert.deepEqual(s3Location('s3://b/p/x-3.db'), { bucket: 'b', key: 'p/x-3.db' });
  assert.equal(s3Location('/s/ns/x.db'), undefined);
  assert.equal(s3Location('s3://bucket-only'), undefined);
});
