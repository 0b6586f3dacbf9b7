// Table tests: the upgrade after its start — snapshot outcome, one member at a time (followers
// first, leader last), health timeout, v2 wait, finalizing, rollback, downgrade refusal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { UpgradeStatus, SnapshotRecord } from '../../../operator/api/types.js';
import type { Observed } from '../../../operator/controller/model.js';
import { cluster, condition, healthy, kinds, member, NOW, reasons, spec, status, withMember } from './fixtures.js';

const LATER = '2026-03-01T10:01:00Z';
const record: SnapshotRecord = { file: 'demo-3.4.0-to-3.5.0-20260301T100000Z.db', sha256: 'ab'.repeat(32), revision: 100, size: 4096, member: 'demo-0', takenAt: NOW };
const base: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'UpgradingMembers', membersDone: [], startedAt: NOW, snapshot: record };
const at = (o: Observed, now: string): Observed => ({ ...o, now });
/** 3 members, leader demo-0; members listed in `upgraded` run 3.5.0 (cluster version still 3.4.0). */
function mixed(upgraded: readonly number[], now = LATER, template = '3.5.0'): Observed {
  let o = at(healthy('3.4.0'), now);
  for (const i of upgraded) o = withMember(o, member(i, '3.5.0', { probe: { isLeader: i === 0, clusterVersion: '3.4.0' } }));
  return { ...o, templateVersion: template };
}

void test('snapshot ok, rehearsal off: recorded in status.upgrade.snapshot before the first follower is restarted', () => {
  const up: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Snapshotting', membersDone: [], startedAt: NOW };
  const plan = reconcile(cluster({ version: '3.5.0', upgrade: { ...spec().upgrade, rehearsal: false } }, status({}, up)), { ...at(healthy('3.4.0'), LATER), snapshotOutcome: { ok: true, forVersion: '3.5.0', record } });
  assert.deepEqual(plan.status.upgrade?.snapshot, record);
  assert.deepEqual(plan.actions, [{ kind: 'SetTemplateVersion', version: '3.5.0' }, { kind: 'RestartMember', name: 'demo-1' }]);
  assert.deepEqual(reasons(plan), ['SnapshotTaken', 'MemberUpgradeStarted']);
  assert.equal(plan.status.upgrade?.currentMember, 'demo-1');
  assert.equal(plan.status.upgrade?.waitUntil, '2026-03-01T10:06:00Z');
  assert.equal(plan.status.upgrade?.state, 'UpgradingMembers');
});

void test('snapshot failed: Blocked, UpgradeBlocked SnapshotFailed, no member touched; retried later, never skipped', () => {
  const up: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Snapshotting', membersDone: [], startedAt: NOW };
  const observed = { ...at(healthy('3.4.0'), LATER), snapshotOutcome: { ok: false, forVersion: '3.5.0', error: 'checksum mismatch' } } as const;
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), observed);
  assert.deepEqual(plan.actions, []);
  assert.equal(plan.status.upgrade?.state, 'Blocked');
  assert.equal(plan.status.upgrade?.snapshot, undefined);
  assert.match(plan.status.upgrade?.reason ?? '', /checksum mismatch/);
  assert.equal(condition(plan, 'UpgradeBlocked').reason, 'SnapshotFailed');
  assert.equal(plan.status.phase, 'UpgradeBlocked');
  assert.deepEqual(plan.events.map((e) => [e.type, e.reason]), [['Warning', 'UpgradeBlocked']]);
  // 30 s later: still blocked, no event, no member touched.
  const wait = reconcile(cluster({ version: '3.5.0' }, plan.status), at(observed, '2026-03-01T10:01:30Z'));
  assert.deepEqual(wait.actions, []);
  assert.deepEqual(wait.events, []);
  // 60 s later: the snapshot is taken again (never skipped).
  const retry = reconcile(cluster({ version: '3.5.0' }, plan.status), at(observed, '2026-03-01T10:02:00Z'));
  assert.deepEqual(kinds(retry), ['TakeSnapshot']);
  assert.equal(retry.status.upgrade?.state, 'Snapshotting');
});

void test('no snapshot outcome (operator restarted while Snapshotting) or a stale one: the snapshot is taken again', () => {
  const up: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Snapshotting', membersDone: [], startedAt: LATER };
  for (const outcome of [undefined, { ok: true as const, forVersion: '3.5.0', record }, { ok: true as const, forVersion: '3.4.1', record: { ...record, takenAt: LATER } }]) {
    const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), { ...at(healthy('3.4.0'), LATER), ...(outcome === undefined ? {} : { snapshotOutcome: outcome }) });
    assert.deepEqual(kinds(plan), ['TakeSnapshot']);
    assert.equal(plan.status.upgrade?.snapshot, undefined);
  }
});

void test('member in flight not back yet: wait, nothing else touched, Degraded not raised for it', () => {
  const up: UpgradeStatus = { ...base, currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z' };
  const observed = withMember(mixed([]), member(1, '3.5.0', { running: false, probe: null }));
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), observed);
  assert.deepEqual(plan.actions, []);
  assert.equal(plan.status.upgrade?.currentMember, 'demo-1');
  assert.equal(condition(plan, 'Progressing').reason, 'WaitingForMember');
  assert.equal(condition(plan, 'Degraded').status, 'False');
  assert.equal(plan.status.readyMembers, '2/3');
  assert.ok((plan.requeueAfterSeconds ?? 0) > 0);
});

void test('member back on the new version and healthy: MemberUpgraded, then the next follower (not the leader)', () => {
  const up: UpgradeStatus = { ...base, currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z' };
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), mixed([1]));
  assert.deepEqual(reasons(plan), ['MemberUpgraded', 'MemberUpgradeStarted']);
  assert.deepEqual(plan.actions, [{ kind: 'RestartMember', name: 'demo-2' }]);
  assert.deepEqual(plan.status.upgrade?.membersDone, ['demo-1']);
  assert.equal(plan.status.upgrade?.currentMember, 'demo-2');
});

void test('member in flight still answering on the old version shortly after its restart: keep waiting', () => {
  const up: UpgradeStatus = { ...base, currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z' };
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), mixed([], '2026-03-01T10:00:20Z'));
  assert.deepEqual(plan.actions, []);
  assert.deepEqual(plan.events, []);
});

void test('member in flight never restarted (still healthy on the old version 60 s after): restarted again', () => {
  const up: UpgradeStatus = { ...base, currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z' };
  const soon = reconcile(cluster({ version: '3.5.0' }, status({}, up)), mixed([], '2026-03-01T10:00:30Z'));
  assert.deepEqual(soon.actions, []);
  const later = reconcile(cluster({ version: '3.5.0' }, status({}, up)), mixed([], '2026-03-01T10:01:00Z'));
  assert.deepEqual(later.actions, [{ kind: 'RestartMember', name: 'demo-1' }]);
  assert.deepEqual(reasons(later), ['MemberRestartRetried']);
  assert.equal(later.status.upgrade?.waitUntil, '2026-03-01T10:06:00Z');
});

void test('the last pass failed an action (Degraded ActionFailed) and the member in flight runs the old version: restarted again at once', () => {
  const up: UpgradeStatus = { ...base, currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z' };
  const failed = status({ conditions: [{ type: 'Degraded', status: 'True', reason: 'ActionFailed', message: 'RestartMember failed', lastTransitionTime: NOW }] }, up);
  const plan = reconcile(cluster({ version: '3.5.0' }, failed), mixed([], '2026-03-01T10:00:05Z', '3.4.0'));
  assert.deepEqual(plan.actions, [{ kind: 'SetTemplateVersion', version: '3.5.0' }, { kind: 'RestartMember', name: 'demo-1' }]);
});

void test('followers done: the leader is restarted last', () => {
  const up: UpgradeStatus = { ...base, membersDone: ['demo-1', 'demo-2'] };
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), mixed([1, 2]));
  assert.deepEqual(plan.actions, [{ kind: 'RestartMember', name: 'demo-0' }]);
  assert.match(plan.events[0]?.message ?? '', /leader/);
});

void test('the previously upgraded member behind the others: the next member waits', () => {
  const up: UpgradeStatus = { ...base, membersDone: ['demo-1'] };
  let observed = withMember(mixed([1]), member(1, '3.5.0', { probe: { revision: 4000, clusterVersion: '3.4.0' } }));
  observed = withMember(observed, member(0, '3.4.0', { probe: { revision: 5000, isLeader: true } }));
  observed = withMember(observed, member(2, '3.4.0', { probe: { revision: 5000 } }));
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), observed);
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'Progressing').reason, 'PreviousMemberBehind');
});

void test('health timeout: the member in flight past its deadline → Blocked, Degraded, UpgradeBlocked, one Warning', () => {
  const up: UpgradeStatus = { ...base, currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z' };
  const observed = withMember(mixed([], '2026-03-01T10:05:00Z'), member(1, '3.5.0', { probe: { healthy: false } }));
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), observed);
  assert.deepEqual(plan.actions, []);
  assert.equal(plan.status.upgrade?.state, 'Blocked');
  assert.equal(condition(plan, 'Degraded').reason, 'MemberHealthTimeout');
  assert.equal(condition(plan, 'UpgradeBlocked').status, 'True');
  assert.deepEqual(plan.events.map((e) => e.type), ['Warning']);
  assert.match(plan.status.upgrade?.reason ?? '', /demo-1 did not come back healthy on 3\.5\.0 within 300s/);
  // Still blocked on the next pass: no second event. Recovered: the upgrade continues.
  const again = reconcile(cluster({ version: '3.5.0' }, plan.status), at(observed, '2026-03-01T10:06:00Z'));
  assert.deepEqual(again.events, []);
  const recovered = reconcile(cluster({ version: '3.5.0' }, plan.status), mixed([1], '2026-03-01T10:07:00Z'));
  assert.deepEqual(reasons(recovered), ['MemberUpgraded', 'MemberUpgradeStarted']);
  assert.equal(condition(recovered, 'UpgradeBlocked').status, 'False');
});

for (const [why, bytes] of [['above the threshold', 60_000_000], ['unreadable', undefined]] as const) {
  void test(`v2 wait: a v2 store ${why} → WaitingV2 for v2WaitSeconds after the member, then the next`, () => {
    const up: UpgradeStatus = { ...base, currentMember: 'demo-1', waitUntil: '2026-03-01T10:05:00Z' };
    let observed = mixed([1]);
    observed = withMember(observed, member(2, '3.4.0', { probe: { v2StoreBytes: bytes } }));
    const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), observed);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.status.upgrade?.state, 'WaitingV2');
    assert.equal(plan.status.upgrade?.waitUntil, '2026-03-01T10:03:00Z');
    assert.deepEqual(reasons(plan), ['MemberUpgraded', 'V2Wait']);
    assert.equal(plan.requeueAfterSeconds, 120);
    const during = reconcile(cluster({ version: '3.5.0' }, plan.status), at(observed, '2026-03-01T10:02:00Z'));
    assert.deepEqual(during.actions, []);
    assert.equal(during.requeueAfterSeconds, 60);
    const after = reconcile(cluster({ version: '3.5.0' }, plan.status), at(observed, '2026-03-01T10:03:00Z'));
    assert.deepEqual(after.actions, [{ kind: 'RestartMember', name: 'demo-2' }]);
    assert.equal(after.status.upgrade?.waitUntil, '2026-03-01T10:08:00Z');
  });
}

// A running v2 wait (recorded until 10:03:00, v2WaitSeconds 120 when it began) seen at 10:02:00
// with upgrade.v2WaitSeconds as given: when it now ends, and whether the next member starts.
const waitCases: ReadonlyArray<readonly [string, number, string | undefined, readonly string[], boolean]> = [
  ['unchanged: the recorded end', 120, '2026-03-01T10:03:00Z', [], false],
  ['raised: not extended', 600, '2026-03-01T10:03:00Z', [], false],
  ['lowered to 30 s: 30 s from now', 30, '2026-03-01T10:02:30Z', ['V2WaitShortened'], false],
  ['lowered to more than what is left: the recorded end', 90, '2026-03-01T10:03:00Z', [], false],
  ['lowered to 0: ended, the next member starts', 0, undefined, ['V2WaitShortened', 'MemberUpgradeStarted'], true],
];
for (const [what, seconds, until, events, next] of waitCases) {
  void test(`v2 wait, upgrade.v2WaitSeconds changed during it: ${what}`, () => {
    const up: UpgradeStatus = { ...base, state: 'WaitingV2', membersDone: ['demo-1'], waitUntil: '2026-03-01T10:03:00Z' };
    const spec = { version: '3.5.0', upgrade: { ...cluster().spec.upgrade, v2WaitSeconds: seconds } };
    const plan = reconcile(cluster(spec, status({}, up)), mixed([1], '2026-03-01T10:02:00Z'));
    assert.deepEqual(reasons(plan), events);
    if (next) {
      assert.deepEqual(plan.actions, [{ kind: 'RestartMember', name: 'demo-2' }]);
      assert.equal(plan.status.upgrade?.state, 'UpgradingMembers');
    } else {
      assert.deepEqual(plan.actions, []);
      assert.equal(plan.status.upgrade?.state, 'WaitingV2');
      assert.equal(plan.status.upgrade?.waitUntil, until);
      assert.equal(plan.requeueAfterSeconds, (Date.parse(until!) - Date.parse('2026-03-01T10:02:00Z')) / 1000);
    }
  });
}

void test('v2 wait, lowered: the next pass keeps the shortened end (no second event), then the next member starts', () => {
  const up: UpgradeStatus = { ...base, state: 'WaitingV2', membersDone: ['demo-1'], waitUntil: '2026-03-01T10:03:00Z' };
  const spec = { version: '3.5.0', upgrade: { ...cluster().spec.upgrade, v2WaitSeconds: 30 } };
  const first = reconcile(cluster(spec, status({}, up)), mixed([1], '2026-03-01T10:02:00Z'));
  const second = reconcile(cluster(spec, first.status), mixed([1], '2026-03-01T10:02:10Z'));
  assert.deepEqual(reasons(second), []);
  assert.equal(second.status.upgrade?.waitUntil, '2026-03-01T10:02:30Z');
  const ended = reconcile(cluster(spec, second.status), mixed([1], '2026-03-01T10:02:30Z'));
  assert.deepEqual(ended.actions, [{ kind: 'RestartMember', name: 'demo-2' }]);
});

void test('v2 wait applies after the last member too, before Finalizing', () => {
  const up: UpgradeStatus = { ...base, membersDone: ['demo-1', 'demo-2'], currentMember: 'demo-0', waitUntil: '2026-03-01T10:05:00Z' };
  const observed = mixed([0, 1, 2]);
  const spec = { version: '3.5.0', upgrade: { ...cluster().spec.upgrade, v2ThresholdBytes: 0 } };
  const plan = reconcile(cluster(spec, status({}, up)), observed);
  assert.equal(plan.status.upgrade?.state, 'WaitingV2');
  const after = reconcile(cluster(spec, plan.status), at(observed, '2026-03-01T10:03:00Z'));
  assert.equal(after.status.upgrade?.state, 'Finalizing');
  assert.equal(after.status.upgrade?.waitUntil, undefined);
});

void test('every member on the new version: Finalizing until every /version reports the new cluster version, then Completed', () => {
  const up: UpgradeStatus = { ...base, membersDone: ['demo-1', 'demo-2'], currentMember: 'demo-0', waitUntil: '2026-03-01T10:05:00Z' };
  const fin = reconcile(cluster({ version: '3.5.0' }, status({}, up)), mixed([0, 1, 2]));
  assert.equal(fin.status.upgrade?.state, 'Finalizing');
  assert.deepEqual(fin.actions, []);
  assert.equal(condition(fin, 'Progressing').reason, 'Finalizing');
  assert.equal(fin.status.downgradeFloor, undefined);
  const done = reconcile(cluster({ version: '3.5.0' }, fin.status), at(healthy('3.5.0'), '2026-03-01T10:02:00Z'));
  assert.equal(done.status.upgrade?.state, 'Completed');
  assert.equal(done.status.upgrade?.finishedAt, '2026-03-01T10:02:00Z');
  assert.deepEqual(done.status.upgrade?.membersDone, ['demo-1', 'demo-2', 'demo-0']);
  assert.equal(done.status.downgradeFloor, '3.5');
  assert.equal(done.status.clusterVersion, '3.5.0');
  assert.deepEqual(done.actions, [{ kind: 'PruneSnapshots', keep: 3 }]);
  assert.deepEqual(reasons(done), ['UpgradeCompleted']);
  assert.equal(condition(done, 'Upgrading').status, 'False');
  assert.equal(done.status.phase, 'Running');
  // Completed is terminal: the next pass changes nothing.
  const steady = reconcile(cluster({ version: '3.5.0' }, done.status), at(healthy('3.5.0'), '2026-03-01T10:03:00Z'));
  assert.deepEqual(steady.actions, []);
  assert.deepEqual(steady.events, []);
});

void test('rollback while mixed: spec.version back to from restarts the upgraded members at from, then RolledBack', () => {
  const up: UpgradeStatus = { ...base, membersDone: ['demo-1'] };
  const plan = reconcile(cluster({ version: '3.4.0' }, status({}, up)), mixed([1]));
  assert.deepEqual(plan.actions, [{ kind: 'SetTemplateVersion', version: '3.4.0' }, { kind: 'RestartMember', name: 'demo-1' }]);
  assert.deepEqual(reasons(plan), ['RollbackStarted', 'MemberRollbackStarted']);
  assert.equal(plan.status.upgrade?.state, 'RollingBack');
  assert.equal(condition(plan, 'Upgrading').reason, 'RollingBack');
  const back = reconcile(cluster({ version: '3.4.0' }, plan.status), { ...at(healthy('3.4.0'), '2026-03-01T10:02:00Z') });
  assert.equal(back.status.upgrade?.state, 'RolledBack');
  assert.deepEqual(back.status.upgrade?.membersDone, []);
  assert.deepEqual(reasons(back), ['MemberRolledBack', 'RollbackCompleted']);
  assert.equal(back.status.downgradeFloor, undefined);
});

void test('rollback with the member in flight broken: it is restarted at from at once (no gate)', () => {
  const up: UpgradeStatus = { ...base, state: 'Blocked', currentMember: 'demo-1', waitUntil: NOW, reason: 'timeout' };
  const observed = withMember(mixed([]), member(1, '3.5.0', { probe: { healthy: false } }));
  const plan = reconcile(cluster({ version: '3.4.0' }, status({}, up)), observed);
  assert.deepEqual(plan.actions, [{ kind: 'SetTemplateVersion', version: '3.4.0' }, { kind: 'RestartMember', name: 'demo-1' }]);
  assert.equal(plan.status.upgrade?.state, 'RollingBack');
});

void test('rollback before any member was touched ends at once', () => {
  const up: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Snapshotting', membersDone: [], startedAt: NOW };
  const plan = reconcile(cluster({ version: '3.4.0' }, status({}, up)), at(healthy('3.4.0'), LATER));
  assert.equal(plan.status.upgrade?.state, 'RolledBack');
  assert.deepEqual(plan.actions, []);
});

void test('after completion a lower spec.version is refused: DowngradeRefused naming the snapshot and the restore command, nothing touched', () => {
  const done: UpgradeStatus = { ...base, state: 'Completed', membersDone: ['demo-1', 'demo-2', 'demo-0'], finishedAt: LATER };
  const plan = reconcile(cluster({ version: '3.4.0' }, status({ downgradeFloor: '3.5', clusterVersion: '3.5.0' }, done)), healthy('3.5.0'));
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'UpgradeBlocked').status, 'True');
  assert.equal(condition(plan, 'UpgradeBlocked').reason, 'DowngradeRefused');
  assert.equal(plan.events.length, 1);
  assert.equal(plan.events[0]?.type, 'Warning');
  assert.equal(plan.events[0]?.reason, 'DowngradeRefused');
  assert.match(plan.events[0]?.message ?? '', /demo-3\.4\.0-to-3\.5\.0-20260301T100000Z\.db/);
  assert.match(plan.events[0]?.message ?? '', /kvstorectl snapshot restore/);
  assert.match(plan.events[0]?.message ?? '', /below the downgrade floor 3\.5 \(the members run 3\.5\.0, cluster version 3\.5\.0\)/);
  assert.deepEqual(plan.status.upgrade, done);
  assert.equal(plan.status.downgradeFloor, '3.5');
});

void test('a lower spec.version is refused by the reported cluster version even without a recorded floor', () => {
  const plan = reconcile(cluster({ version: '3.4.0' }, status({ clusterVersion: '3.5.0' })), healthy('3.5.0'));
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'UpgradeBlocked').reason, 'DowngradeRefused');
});

void test('spec.version back to from once every member runs the new version (Finalizing) is refused', () => {
  const up: UpgradeStatus = { ...base, state: 'Finalizing', membersDone: ['demo-1', 'demo-2', 'demo-0'] };
  const plan = reconcile(cluster({ version: '3.4.0' }, status({}, up)), mixed([0, 1, 2]));
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'UpgradeBlocked').reason, 'DowngradeRefused');
});

void test('spec.version changed to a third version mid-upgrade: held, UpgradeBlocked VersionChangedMidUpgrade', () => {
  const up: UpgradeStatus = { ...base, membersDone: ['demo-1'] };
  const plan = reconcile(cluster({ version: '3.5.1' }, status({}, up)), mixed([1]));
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'UpgradeBlocked').reason, 'VersionChangedMidUpgrade');
  assert.equal(plan.status.upgrade?.state, 'UpgradingMembers');
});

void test('spec.version changed to a third version before any member was touched: the new target replaces the old', () => {
  const up: UpgradeStatus = { from: '3.4.0', to: '3.5.0', state: 'Blocked', membersDone: [], startedAt: NOW, reason: 'snapshot failed: x' };
  const plan = reconcile(cluster({ version: '3.4.1' }, status({}, up)), at(healthy('3.4.0'), LATER));
  assert.deepEqual(kinds(plan), ['TakeSnapshot']);
  assert.equal(plan.status.upgrade?.to, '3.4.1');
  assert.equal(plan.status.upgrade?.state, 'Snapshotting');
});

void test('rolling back, then spec.version forward again: the upgrade resumes', () => {
  const up: UpgradeStatus = { ...base, state: 'RollingBack', membersDone: ['demo-1', 'demo-2'] };
  const plan = reconcile(cluster({ version: '3.5.0' }, status({}, up)), mixed([1, 2], LATER, '3.4.0'));
  assert.deepEqual(reasons(plan), ['UpgradeResumed', 'MemberUpgradeStarted']);
  assert.deepEqual(plan.actions, [{ kind: 'SetTemplateVersion', version: '3.5.0' }, { kind: 'RestartMember', name: 'demo-0' }]);
});

void test('mixed members with no upgrade record (status lost) and spec.version the lower one: the others are rolled back', () => {
  const plan = reconcile(cluster({ version: '3.4.0' }, undefined), { ...mixed([1]), now: LATER });
  assert.equal(plan.status.upgrade?.state, 'RollingBack');
  assert.deepEqual(plan.actions, [{ kind: 'SetTemplateVersion', version: '3.4.0' }, { kind: 'RestartMember', name: 'demo-1' }]);
});
