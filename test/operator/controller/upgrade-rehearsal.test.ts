// Table tests: the upgrade rehearsal (state Rehearsing) between the verified snapshot and the
// first member — required by default, skipped when off, passed, failed, timed out, and redone
// after an operator restart (a lost outcome is never a pass).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { SnapshotRecord, UpgradeStatus } from '../../../operator/api/types.js';
import type { Observed, RehearsalObservation } from '../../../operator/controller/model.js';
import { cluster, condition, healthy, kinds, NOW, reasons, spec, status } from './fixtures.js';

const T10 = '2026-03-01T10:00:10Z';
const record: SnapshotRecord = { file: 'demo-3.4.0-to-3.5.0-20260301T100000Z.db', sha256: 'ab'.repeat(32), revision: 100, size: 4096, member: 'demo-0', takenAt: NOW };
const ID = 'demo-20260301t100000z';
const rehearsing: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Rehearsing', membersDone: [], startedAt: NOW, snapshot: record, rehearsal: { id: ID, startedAt: NOW } };
const expected = { revision: 100, keys: 42 };
const serving = (over: Partial<RehearsalObservation> = {}): RehearsalObservation => ({ id: ID, phase: 'Serving', expected, served: { healthy: true, revision: 100, keys: 42 }, logTail: 'line 1\nline 2\n', ...over });
const obs = (now: string, rehearsal?: RehearsalObservation): Observed => ({ ...healthy('3.4.0', 3, 0, { now }), ...(rehearsal === undefined ? {} : { rehearsal }) });
const upgradeSpec = (over: Partial<ReturnType<typeof spec>['upgrade']>) => ({ version: '3.5.0', upgrade: { ...spec().upgrade, ...over } });
const noMemberTouched = (k: readonly string[]): void => assert.ok(!k.includes('RestartMember') && !k.includes('SetTemplateVersion'), k.join(','));

void test('rehearsal required by default: the recorded snapshot is restored into a scratch member at the target, no member touched', () => {
  const up: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Snapshotting', membersDone: [], startedAt: NOW };
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), { ...obs(T10), snapshotOutcome: { ok: true, forVersion: '3.5.0', record } });
  assert.deepEqual(plan.actions, [{ kind: 'StartRehearsal', id: 'demo-20260301t100010z', file: record.file, version: '3.5.0' }]);
  assert.deepEqual(reasons(plan), ['SnapshotTaken', 'RehearsalStarted']);
  assert.equal(plan.status.upgrade?.state, 'Rehearsing');
  assert.deepEqual(plan.status.upgrade?.snapshot, record);
  assert.deepEqual(plan.status.upgrade?.rehearsal, { id: 'demo-20260301t100010z', startedAt: T10 });
  assert.equal(plan.status.phase, 'Upgrading');
  assert.equal(condition(plan, 'Progressing').reason, 'Rehearsing');
});

void test('rehearsal skipped when spec.upgrade.rehearsal is false: the first follower starts after the snapshot', () => {
  const up: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Snapshotting', membersDone: [], startedAt: NOW };
  const plan = reconcile(cluster(upgradeSpec({ rehearsal: false }), status({}, up)), { ...obs(T10), snapshotOutcome: { ok: true, forVersion: '3.5.0', record } });
  assert.deepEqual(kinds(plan), ['SetTemplateVersion', 'RestartMember']);
  assert.equal(plan.status.upgrade?.rehearsal, undefined);
  assert.equal(plan.status.upgrade?.state, 'UpgradingMembers');
});

void test('rehearsal passed (same revision and key count): outcome recorded, scratch removed, the first follower starts in the same pass', () => {
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(T10, serving()));
  assert.deepEqual(plan.actions, [{ kind: 'StopRehearsal' }, { kind: 'SetTemplateVersion', version: '3.5.0' }, { kind: 'RestartMember', name: 'demo-1' }]);
  assert.deepEqual(reasons(plan), ['RehearsalPassed', 'MemberUpgradeStarted']);
  assert.equal(plan.status.upgrade?.state, 'UpgradingMembers');
  assert.deepEqual(plan.status.upgrade?.rehearsal, { id: ID, startedAt: NOW, outcome: 'Passed', revision: 100, keys: 42, durationSeconds: 10 });
});

interface FailCase {
  readonly name: string;
  readonly now: string;
  readonly rehearsal: RehearsalObservation;
  readonly why: RegExp;
}

const failures: readonly FailCase[] = [
  { name: 'fewer keys served', now: T10, rehearsal: serving({ served: { healthy: true, revision: 100, keys: 41 } }), why: /serves 41 keys, the snapshot holds 42/ },
  { name: 'another revision served', now: T10, rehearsal: serving({ served: { healthy: true, revision: 99, keys: 42 } }), why: /serves revision 99, the snapshot holds 100/ },
  { name: 'the restore failed (corrupted snapshot)', now: T10, rehearsal: { id: ID, phase: 'Failed', error: 'restore: expected sha256 [1 2], got [3 4]', logTail: 'restoring snapshot\nexpected sha256 [1 2], got [3 4]\n' }, why: /expected sha256/ },
  { name: 'the scratch process exited', now: T10, rehearsal: { id: ID, phase: 'Failed', expected, error: 'the scratch member exited (code 1)', logTail: 'panic\n' }, why: /exited/ },
  { name: 'timeout: still starting after rehearsalTimeoutSeconds', now: '2026-03-01T10:05:00Z', rehearsal: { id: ID, phase: 'Starting', expected, logTail: 'starting\n' }, why: /within 300s/ },
  { name: 'timeout: running but never healthy', now: '2026-03-01T10:05:01Z', rehearsal: serving({ served: { healthy: false } }), why: /within 300s/ },
];

for (const c of failures) {
  void test(`rehearsal failed, ${c.name} → Blocked, UpgradeBlocked RehearsalFailed, log tail in the Warning event, no member touched`, () => {
    const plan = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(c.now, c.rehearsal));
    assert.deepEqual(kinds(plan), ['StopRehearsal']);
    assert.equal(plan.status.upgrade?.state, 'Blocked');
    assert.equal(plan.status.upgrade?.rehearsal?.outcome, 'Failed');
    assert.match(plan.status.upgrade?.rehearsal?.message ?? '', c.why);
    assert.equal(condition(plan, 'UpgradeBlocked').status, 'True');
    assert.equal(condition(plan, 'UpgradeBlocked').reason, 'RehearsalFailed');
    assert.equal(plan.status.phase, 'UpgradeBlocked');
    assert.deepEqual(plan.events.map((e) => [e.type, e.reason]), [['Warning', 'UpgradeBlocked']]);
    assert.ok(plan.events[0]?.message.includes(c.rehearsal.logTail.trimEnd()), plan.events[0]?.message);
  });
}

void test('rehearsal still starting within the timeout: wait, nothing touched', () => {
  for (const o of [{ id: ID, phase: 'Starting', expected, logTail: '' } as const, serving({ served: { healthy: false } }), serving({ served: { healthy: true, revision: 100 } })]) {
    const plan = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(T10, o));
    assert.deepEqual(plan.actions, []);
    assert.deepEqual(plan.events, []);
    assert.deepEqual(plan.status.upgrade, rehearsing);
    assert.ok((plan.requeueAfterSeconds ?? 0) > 0);
  }
});

void test('a shorter rehearsalTimeoutSeconds fails a rehearsal sooner', () => {
  const plan = reconcile(cluster(upgradeSpec({ rehearsalTimeoutSeconds: 5 }), status({}, rehearsing)), obs(T10, { id: ID, phase: 'Starting', logTail: '' }));
  assert.equal(condition(plan, 'UpgradeBlocked').reason, 'RehearsalFailed');
  assert.match(plan.status.upgrade?.rehearsal?.message ?? '', /within 5s/);
});

void test('operator restarted mid-rehearsal (no scratch member, or another one): rehearsed again with a new id, never counted as passed', () => {
  for (const o of [undefined, serving({ id: 'demo-old' })]) {
    const plan = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(T10, o));
    assert.deepEqual(plan.actions, [{ kind: 'StartRehearsal', id: 'demo-20260301t100010z', file: record.file, version: '3.5.0' }]);
    assert.deepEqual(reasons(plan), ['RehearsalRestarted']);
    assert.equal(plan.status.upgrade?.state, 'Rehearsing');
    assert.deepEqual(plan.status.upgrade?.rehearsal, { id: 'demo-20260301t100010z', startedAt: T10 });
  }
  // A status without a rehearsal record while Rehearsing is rehearsed too.
  const { rehearsal: _r, ...bare } = rehearsing;
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, bare)), obs(T10, serving()));
  assert.deepEqual(kinds(plan), ['StartRehearsal']);
});

void test('blocked by a failed rehearsal: held without events; rehearsal false goes on; spec.version back to from ends RolledBack', () => {
  const failed = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(T10, serving({ served: { healthy: true, revision: 100, keys: 1 } })));
  const held = reconcile(cluster({ version: '3.5.0' }, failed.status), obs('2026-03-01T10:10:00Z'));
  assert.deepEqual(held.actions, []);
  assert.deepEqual(held.events, []);
  assert.equal(condition(held, 'UpgradeBlocked').reason, 'RehearsalFailed');
  assert.equal(condition(held, 'UpgradeBlocked').lastTransitionTime, condition(failed, 'UpgradeBlocked').lastTransitionTime);
  const on = reconcile(cluster(upgradeSpec({ rehearsal: false }), failed.status), obs('2026-03-01T10:10:00Z'));
  assert.deepEqual(kinds(on), ['SetTemplateVersion', 'RestartMember']);
  assert.deepEqual(reasons(on), ['RehearsalSkipped', 'MemberUpgradeStarted']);
  const back = reconcile(cluster({ version: '3.4.0' }, failed.status), obs('2026-03-01T10:10:00Z'));
  noMemberTouched(kinds(back));
  assert.equal(back.status.upgrade?.state, 'RolledBack');
});

void test('rehearsal turned off while rehearsing: the scratch member is removed and the first follower starts', () => {
  const plan = reconcile(cluster(upgradeSpec({ rehearsal: false }), status({}, rehearsing)), obs(T10, { id: ID, phase: 'Starting', logTail: '' }));
  assert.deepEqual(kinds(plan), ['StopRehearsal', 'SetTemplateVersion', 'RestartMember']);
  assert.equal(plan.status.upgrade?.rehearsal, undefined);
});

void test('a scratch member left over outside Rehearsing is removed; none observed, nothing extra is planned', () => {
  const moving: UpgradeStatus = { ...rehearsing, state: 'UpgradingMembers', currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z', rehearsal: { id: ID, startedAt: NOW, outcome: 'Passed', revision: 100, keys: 42, durationSeconds: 3 } };
  const withScratch = reconcile(cluster({ version: '3.5.0' }, status({}, moving)), obs(T10, serving()));
  assert.equal(kinds(withScratch)[0], 'StopRehearsal');
  const without = reconcile(cluster({ version: '3.5.0' }, status({}, moving)), obs(T10));
  assert.ok(!kinds(without).includes('StopRehearsal'));
});

void test('a platform note (the in-operator fallback) is told in the Rehearsing message and the RehearsalPassed event', () => {
  const note = 'upgrade rehearsals run as a process inside the operator pod';
  const waiting = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(T10, { id: ID, phase: 'Starting', logTail: '', note }));
  assert.ok(condition(waiting, 'Progressing').message.endsWith(`; ${note}`), condition(waiting, 'Progressing').message);
  const passed = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(T10, serving({ note })));
  const event = passed.events.find((e) => e.reason === 'RehearsalPassed');
  assert.ok(event?.message.endsWith(`; ${note}`), event?.message);
  const plain = reconcile(cluster({ version: '3.5.0' }, status({}, rehearsing)), obs(T10, serving()));
  assert.ok(!(plain.events.find((e) => e.reason === 'RehearsalPassed')?.message ?? '').includes(';'));
});
