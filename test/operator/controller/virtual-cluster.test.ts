// Drives reconcile pass after pass against a virtual 3-member cluster through a whole 3.4.0 →
// 3.5.0 upgrade: order, snapshot first, v2 wait, resumption from status alone, rollback while
// mixed, refusal after completion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvstoreCluster } from '../../../operator/api/types.js';
import type { Plan } from '../../../operator/controller/model.js';
import { spec, NOW } from './fixtures.js';
import { drive, makeCluster, VirtualCluster } from './virtual-cluster.js';

const completed = (p: Plan): boolean => p.status.upgrade?.state === 'Completed';
const steady = (v: string) => (p: Plan): boolean => p.status.phase === 'Running' && p.status.members.every((m) => m.version === v) && p.actions.length === 0;

function start(leader = 1): { vc: VirtualCluster; c: KvstoreCluster } {
  const vc = new VirtualCluster('vc', '3.4.0', 3, leader, NOW);
  const c = drive(vc, makeCluster('vc', spec({ version: '3.4.0' })), steady('3.4.0'));
  return { vc, c: { ...c, spec: { ...c.spec, version: '3.5.0' } } };
}

void test('virtual cluster: a full 3.4.0 → 3.5.0 upgrade — snapshot first, followers before the leader, one at a time', () => {
  const { vc, c } = start(1);
  const end = drive(vc, c, completed);
  assert.deepEqual(vc.restarts(), ['vc-0', 'vc-2', 'vc-1']);
  const kindsRun = vc.executed.map((e) => e.action.kind);
  assert.ok(kindsRun.indexOf('TakeSnapshot') >= 0 && kindsRun.indexOf('TakeSnapshot') < kindsRun.indexOf('RestartMember'));
  assert.equal(kindsRun.filter((k) => k === 'TakeSnapshot').length, 1);
  assert.deepEqual(kindsRun.slice(-1), ['PruneSnapshots']);
  const st = end.status;
  assert.equal(st?.upgrade?.state, 'Completed');
  assert.deepEqual(st?.upgrade?.membersDone, ['vc-0', 'vc-2', 'vc-1']);
  assert.equal(st?.upgrade?.snapshot?.member, 'vc-1');
  assert.match(st?.upgrade?.snapshot?.file ?? '', /^vc-3\.4\.0-to-3\.5\.0-\d{8}T\d{6}Z\.db$/);
  assert.equal(st?.downgradeFloor, '3.5');
  assert.equal(st?.clusterVersion, '3.5.0');
  assert.ok(st?.members.every((m) => m.version === '3.5.0'));
  // Never two members down at once; every pass asks to be run again.
  for (const plan of vc.plans) assert.ok(plan.actions.filter((a) => a.kind === 'RestartMember').length <= 1);
  for (const plan of vc.plans) assert.ok((plan.requeueAfterSeconds ?? 0) > 0);
  const events = vc.plans.flatMap((p) => p.events.map((e) => e.reason));
  assert.deepEqual(
    events.filter((e) => e !== 'ClusterCreated'),
    ['UpgradeStarted', 'SnapshotTaken', 'RehearsalStarted', 'RehearsalPassed', 'MemberUpgradeStarted', 'MemberUpgraded', 'MemberUpgradeStarted', 'MemberUpgraded', 'MemberUpgradeStarted', 'MemberUpgraded', 'UpgradeCompleted'],
  );
  // The rehearsal ran between the snapshot and the first member, and its scratch member is gone.
  assert.ok(kindsRun.indexOf('TakeSnapshot') < kindsRun.indexOf('StartRehearsal') && kindsRun.indexOf('StopRehearsal') < kindsRun.indexOf('RestartMember'));
  assert.equal(vc.scratch, undefined);
  assert.equal(st?.upgrade?.rehearsal?.outcome, 'Passed');
  assert.equal(st?.upgrade?.rehearsal?.keys, vc.snapshotKeys);
  assert.equal(st?.upgrade?.rehearsal?.revision, st?.upgrade?.snapshot?.revision);
  // Each status the plans wrote while a member was in flight says which one.
  for (const plan of vc.plans) {
    if (plan.actions.some((a) => a.kind === 'RestartMember')) assert.equal(plan.status.phase, 'Upgrading');
  }
});

void test('virtual cluster: with a large v2 store, v2WaitSeconds pass between members', () => {
  const { vc, c } = start(0);
  vc.v2Bytes = 60_000_000;
  drive(vc, c, completed);
  const times = vc.executed.filter((e) => e.action.kind === 'RestartMember').map((e) => Date.parse(e.at));
  assert.equal(times.length, 3);
  for (let i = 1; i < times.length; i++) assert.ok((times[i] ?? 0) - (times[i - 1] ?? 0) >= 120_000);
  const waits = vc.plans.flatMap((p) => p.events.filter((e) => e.reason === 'V2Wait'));
  assert.equal(waits.length, 3);
  const finalizing = vc.plans.findIndex((p) => p.status.upgrade?.state === 'Finalizing' || p.status.upgrade?.state === 'Completed');
  const lastWait = vc.plans.findLastIndex((p) => p.events.some((e) => e.reason === 'V2Wait'));
  assert.ok(lastWait < finalizing);
});

void test('virtual cluster: an operator restarted after any pass resumes from status alone', () => {
  for (let k = 1; k < 14; k++) {
    const { vc, c } = start(2);
    let passes = 0;
    const mid = drive(vc, c, () => ++passes >= k || false, k + 1);
    vc.restartOperator();
    const fresh = makeCluster('vc', mid.spec);
    const end = drive(vc, { ...fresh, status: mid.status }, completed);
    assert.equal(end.status?.upgrade?.state, 'Completed', `restart after pass ${k}`);
    assert.deepEqual(vc.restarts(), ['vc-0', 'vc-1', 'vc-2'], `restart after pass ${k}`);
    const snaps = vc.executed.filter((e) => e.action.kind === 'TakeSnapshot').length;
    assert.ok(snaps >= 1 && snaps <= 2, `restart after pass ${k}: ${snaps} snapshots`);
    const firstRestart = vc.executed.findIndex((e) => e.action.kind === 'RestartMember');
    const lastSnap = vc.executed.map((e) => e.action.kind).lastIndexOf('TakeSnapshot');
    assert.ok(lastSnap < firstRestart, `restart after pass ${k}: a snapshot after a member was touched`);
  }
});

void test('virtual cluster: rollback while mixed returns the upgraded members to 3.4.0, leader last', () => {
  const { vc, c } = start(1);
  vc.v2Bytes = 60_000_000; // a pause (WaitingV2) between members, with no member in flight
  const mixed = drive(vc, c, (p) => (p.status.upgrade?.membersDone.length ?? 0) === 2 && p.status.upgrade?.state === 'WaitingV2');
  assert.deepEqual(mixed.status?.upgrade?.membersDone, ['vc-0', 'vc-2']);
  const restartsBefore = vc.restarts().length;
  const back = drive(vc, { ...mixed, spec: { ...mixed.spec, version: '3.4.0' } }, (p) => p.status.upgrade?.state === 'RolledBack');
  assert.deepEqual(vc.restarts().slice(restartsBefore), ['vc-0', 'vc-2']);
  assert.equal(vc.template, '3.4.0');
  assert.ok(back.status?.members.every((m) => m.version === '3.4.0'));
  assert.equal(back.status?.downgradeFloor, undefined);
  const events = vc.plans.flatMap((p) => p.events.map((e) => e.reason));
  assert.ok(events.includes('RollbackStarted') && events.includes('RollbackCompleted'));
  // Settled: nothing more to do.
  const after = drive(vc, back, () => true, 1);
  assert.equal(after.status?.phase, 'Running');
});

void test('virtual cluster: rollback with a member in flight restarts that member at 3.4.0 first', () => {
  const { vc, c } = start(1);
  const mixed = drive(vc, c, (p) => p.status.upgrade?.currentMember === 'vc-2');
  const restartsBefore = vc.restarts().length;
  const back = drive(vc, { ...mixed, spec: { ...mixed.spec, version: '3.4.0' } }, (p) => p.status.upgrade?.state === 'RolledBack');
  assert.deepEqual(vc.restarts().slice(restartsBefore), ['vc-2', 'vc-0']);
  assert.ok(back.status?.members.every((m) => m.version === '3.4.0'));
});

void test('virtual cluster: after completion a downgrade is refused and nothing is touched', () => {
  const { vc, c } = start(1);
  const done = drive(vc, c, completed);
  const before = vc.executed.length;
  let passes = 0;
  const refused = drive(vc, { ...done, spec: { ...done.spec, version: '3.4.0' } }, () => ++passes >= 5, 6);
  assert.equal(vc.executed.length, before);
  assert.equal(refused.status?.phase, 'UpgradeBlocked');
  assert.equal(refused.status?.conditions.find((x) => x.type === 'UpgradeBlocked')?.reason, 'DowngradeRefused');
  const warnings = vc.plans.flatMap((p) => p.events).filter((e) => e.reason === 'DowngradeRefused');
  assert.equal(warnings.length, 1);
  assert.ok(warnings[0]?.message.includes(done.status?.upgrade?.snapshot?.file ?? '?'));
  assert.ok(refused.status?.members.every((m) => m.version === '3.5.0'));
});

void test('virtual cluster: a failing snapshot blocks the upgrade before any member is touched', () => {
  const { vc, c } = start(1);
  vc.failSnapshot = true;
  let passes = 0;
  const blocked = drive(vc, c, () => ++passes >= 20, 21);
  assert.deepEqual(vc.restarts(), []);
  assert.equal(blocked.status?.conditions.find((x) => x.type === 'UpgradeBlocked')?.status, 'True');
  assert.ok(vc.executed.filter((e) => e.action.kind === 'TakeSnapshot').length >= 2, 'retried');
  vc.failSnapshot = false;
  const end = drive(vc, blocked, completed);
  assert.equal(end.status?.upgrade?.state, 'Completed');
  assert.ok(end.status?.upgrade?.snapshot !== undefined);
});

void test('virtual cluster: scale 3 → 5 one learner at a time, then 5 → 3 from the highest ordinal', () => {
  const { vc, c } = start(0);
  const up = { ...c, spec: { ...c.spec, version: '3.4.0', size: 5 as const } };
  vc.size = 5;
  const five = drive(vc, up, steady('3.4.0'));
  assert.equal(five.status?.readyMembers, '5/5');
  const kindsRun = vc.executed.map((e) => `${e.action.kind}${'name' in e.action ? ` ${e.action.name}` : ''}`);
  assert.deepEqual(kindsRun.filter((k) => k !== 'SetTemplateVersion'), ['AddLearner vc-3', 'EnsureObjects', 'PromoteLearner', 'AddLearner vc-4', 'EnsureObjects', 'PromoteLearner']);
  for (const plan of vc.plans) assert.ok(plan.actions.filter((a) => a.kind === 'AddLearner').length <= 1);
  const before = vc.executed.length;
  vc.size = 3;
  const three = drive(vc, { ...five, spec: { ...five.spec, size: 3 as const } }, steady('3.4.0'));
  assert.equal(three.status?.readyMembers, '3/3');
  assert.deepEqual(
    vc.executed.slice(before).map((e) => (e.action.kind === 'RemoveMember' ? `remove ${e.action.name}` : e.action.kind === 'EnsureObjects' ? `replicas ${e.action.replicas}` : e.action.kind)),
    ['remove vc-4', 'replicas 4', 'remove vc-3', 'replicas 3'],
  );
  assert.deepEqual(three.status?.members.map((m) => m.name), ['vc-0', 'vc-1', 'vc-2']);
});

void test('virtual cluster: a member unreachable for longer than the health timeout is replaced (removed, re-added empty, promoted)', () => {
  const { vc, c } = start(0);
  const settled = { ...c, spec: { ...c.spec, version: '3.4.0' } };
  vc.fail(2);
  const healed = drive(vc, settled, (p) => p.status.readyMembers === '3/3' && p.actions.length === 0 && p.status.phase === 'Running');
  const kindsRun = vc.executed.map((e) => e.action.kind);
  assert.deepEqual(kindsRun, ['RemoveMember', 'AddLearner', 'ResetMember', 'PromoteLearner']);
  const removedAt = Date.parse(vc.executed[0]?.at ?? '');
  assert.ok(removedAt - Date.parse(NOW) >= 300_000, 'not before memberHealthTimeoutSeconds');
  assert.equal(healed.status?.conditions.find((x) => x.type === 'Degraded')?.status, 'False');
  const events = vc.plans.flatMap((p) => p.events.map((e) => e.reason));
  assert.ok(['MemberReplacing', 'MemberReplaced', 'MemberPromoted'].every((r) => events.includes(r)));
});

void test('virtual cluster: a member whose data is gone is replaced at once (no health timeout), the leader too', () => {
  for (const victim of [2, 0]) {
    const { vc, c } = start(0);
    const settled = { ...c, spec: { ...c.spec, version: '3.4.0' } };
    vc.loseData(victim);
    const healed = drive(vc, settled, (p) => p.status.readyMembers === '3/3' && p.actions.length === 0 && p.status.phase === 'Running');
    assert.deepEqual(vc.executed.map((e) => e.action.kind), ['RemoveMember', 'AddLearner', 'ResetMember', 'PromoteLearner']);
    assert.ok(Date.parse(vc.executed[0]?.at ?? '') - Date.parse(NOW) < 300_000, 'not held back by memberHealthTimeoutSeconds');
    assert.equal(healed.status?.conditions.find((x) => x.type === 'Degraded')?.status, 'False');
    const events = vc.plans.flatMap((p) => p.events.filter((e) => e.reason.startsWith('MemberReplac')).map((e) => `${e.reason}: ${/reason (\w+)/.exec(e.message)?.[1] ?? ''}`));
    assert.deepEqual(events, ['MemberReplacing: DataLost', 'MemberReplaced: DataLost']);
  }
});

for (const [size, leader, order] of [
  [1, 0, ['vc-0']],
  [5, 3, ['vc-0', 'vc-1', 'vc-2', 'vc-4', 'vc-3']],
] as const) {
  void test(`virtual cluster: a ${size}-member 3.3.2 → 3.4.0 upgrade restarts ${order.join(', ')}`, () => {
    const vc = new VirtualCluster('vc', '3.3.2', size, leader, NOW);
    const c = drive(vc, makeCluster('vc', spec({ version: '3.3.2', size })), steady('3.3.2'));
    const end = drive(vc, { ...c, spec: { ...c.spec, version: '3.4.0' } }, completed);
    assert.deepEqual(vc.restarts(), order);
    assert.equal(end.status?.downgradeFloor, '3.4');
    assert.equal(end.status?.clusterVersion, '3.4.0');
  });
}

void test('virtual cluster: a rehearsal whose scratch member serves other figures blocks the upgrade before any member is touched', () => {
  const { vc, c } = start(1);
  vc.rehearsal = 'serves-fewer-keys';
  const end = drive(vc, c, (p) => p.status.upgrade?.state === 'Blocked');
  assert.deepEqual(vc.restarts(), []);
  assert.equal(vc.scratch, undefined);
  assert.equal(end.status?.upgrade?.rehearsal?.outcome, 'Failed');
  assert.equal(end.status?.conditions.find((x) => x.type === 'UpgradeBlocked')?.reason, 'RehearsalFailed');
  // It stays blocked; nothing is restarted while it does.
  let held = end;
  for (let i = 0; i < 5; i++) {
    vc.tick(60);
    const p = drive(vc, held, () => true, 1);
    held = p;
  }
  assert.equal(held.status?.upgrade?.state, 'Blocked');
  assert.deepEqual(vc.restarts(), []);
  // spec.version back to 3.4.0: nothing was touched, the upgrade ends RolledBack at once.
  const back = drive(vc, { ...held, spec: { ...held.spec, version: '3.4.0' } }, (p) => p.status.upgrade?.state === 'RolledBack');
  assert.equal(back.status?.upgrade?.state, 'RolledBack');
  assert.deepEqual(vc.restarts(), []);
});

void test('virtual cluster: an operator restarted mid-rehearsal rehearses again, then upgrades', () => {
  const { vc, c } = start(1);
  vc.rehearsalPasses = 3;
  let cur = drive(vc, c, (p) => p.status.upgrade?.state === 'Rehearsing');
  const first = cur.status?.upgrade?.rehearsal?.id;
  vc.tick(2);
  vc.restartOperator();
  cur = drive(vc, cur, (p) => p.actions.some((a) => a.kind === 'StartRehearsal'));
  assert.equal(cur.status?.upgrade?.state, 'Rehearsing');
  assert.notEqual(cur.status?.upgrade?.rehearsal?.id, first);
  assert.deepEqual(vc.restarts(), []);
  const end = drive(vc, cur, completed);
  assert.equal(end.status?.upgrade?.rehearsal?.outcome, 'Passed');
  assert.deepEqual(vc.restarts(), ['vc-0', 'vc-2', 'vc-1']);
});
