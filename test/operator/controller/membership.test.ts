// Table tests: create, scale up (learner first, promote when caught up), scale down (highest
// ordinal), replace a removed or long-unreachable member.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { Observed } from '../../../operator/controller/model.js';
import { cluster, clusterMembers, condition, healthy, idOf, kinds, member, NOW, reasons, status, withMember } from './fixtures.js';

const LATER = '2026-03-01T10:10:00Z';

void test('create: no owned objects → EnsureObjects for spec.size members at spec.version, phase Creating', () => {
  const observed: Observed = { now: NOW, objectsExist: false, templateVersion: '', members: [] };
  const plan = reconcile(cluster({ version: '3.4.0' }), observed);
  assert.deepEqual(plan.actions, [{ kind: 'EnsureObjects', version: '3.4.0', replicas: 3 }]);
  assert.deepEqual(reasons(plan), ['ClusterCreating']);
  assert.equal(plan.status.phase, 'Creating');
  assert.equal(plan.status.readyMembers, '0/3');
  assert.equal(condition(plan, 'Available').status, 'False');
  assert.equal(condition(plan, 'Progressing').reason, 'Creating');
});

void test('creating: wait until every member is ready, then ClusterCreated once and Running', () => {
  const starting = withMember(healthy('3.4.0'), member(2, '3.4.0', { probe: null }));
  const wait = reconcile(cluster({}, status({ phase: 'Creating' })), starting);
  assert.deepEqual(wait.actions, []);
  assert.equal(wait.status.phase, 'Creating');
  assert.equal(condition(wait, 'Degraded').status, 'False');
  const ready = reconcile(cluster({}, wait.status), healthy('3.4.0'));
  assert.deepEqual(reasons(ready), ['ClusterCreated']);
  assert.equal(ready.status.phase, 'Running');
  const steady = reconcile(cluster({}, ready.status), healthy('3.4.0'));
  assert.deepEqual(steady.events, []);
  assert.deepEqual(steady.actions, []);
  assert.equal(condition(steady, 'Progressing').status, 'False');
});

/** 5 slots, the first `members` are voting members; slots beyond do not exist yet. */
function growing(members: number, learner?: { ordinal: number; revision: number; exists: boolean }): Observed {
  const o = healthy('3.4.0', members);
  const slots = o.members.map((m) => member(m.ordinal, '3.4.0', { probe: { isLeader: m.ordinal === 0, revision: 1000 } }));
  for (let i = members; i < 5; i++) {
    const isLearner = learner?.ordinal === i;
    slots.push(isLearner && learner.exists ? member(i, '3.4.0', { probe: { isLearner: true, revision: learner.revision } }) : member(i, '', { exists: false, running: false, probe: null }));
  }
  const cm = [...clusterMembers(o.members)];
  if (learner !== undefined) cm.push({ id: idOf(learner.ordinal), name: learner.exists ? `demo-${learner.ordinal}` : '', peerURLs: [`http://127.0.0.${learner.ordinal + 10}:2380`], isLearner: true });
  return { ...o, members: slots, clusterMembers: cm };
}

void test('scale up: one member at a time, as a learner first (AddLearner + EnsureObjects replicas+1)', () => {
  const plan = reconcile(cluster({ size: 5 }, status()), growing(3));
  assert.deepEqual(plan.actions, [
    { kind: 'AddLearner', name: 'demo-3', peerURL: 'http://127.0.0.13:2380' },
    { kind: 'EnsureObjects', version: '3.4.0', replicas: 4 },
  ]);
  assert.deepEqual(reasons(plan), ['MemberAdded']);
  assert.equal(plan.status.phase, 'Scaling');
  assert.equal(plan.status.readyMembers, '3/5');
  assert.equal(condition(plan, 'Degraded').status, 'False');
  assert.equal(condition(plan, 'Available').status, 'True');
});

void test('scale up: a learner registered but not started → its slot is started', () => {
  const plan = reconcile(cluster({ size: 5 }, status()), growing(3, { ordinal: 3, revision: 0, exists: false }));
  assert.deepEqual(plan.actions, [{ kind: 'EnsureObjects', version: '3.4.0', replicas: 4 }]);
});

void test('scale up: the learner behind the leader waits; caught up it is promoted', () => {
  const behind = reconcile(cluster({ size: 5 }, status()), growing(3, { ordinal: 3, revision: 2, exists: true }));
  assert.deepEqual(behind.actions, []);
  assert.equal(condition(behind, 'Progressing').reason, 'LearnerCatchingUp');
  const caught = reconcile(cluster({ size: 5 }, status()), growing(3, { ordinal: 3, revision: 995, exists: true }));
  assert.deepEqual(caught.actions, [{ kind: 'PromoteLearner', memberId: idOf(3) }]);
  assert.deepEqual(reasons(caught), ['MemberPromoted']);
});

void test('scale up waits for a healthy cluster', () => {
  const plan = reconcile(cluster({ size: 5 }, status()), withMember(growing(3), member(1, '3.4.0', { probe: { healthy: false } })));
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'Progressing').reason, 'WaitingForHealthyCluster');
});

void test('scale down: RemoveMember of the highest ordinal, then EnsureObjects with fewer replicas', () => {
  const plan = reconcile(cluster({ size: 3 }, status()), healthy('3.4.0', 5));
  assert.deepEqual(plan.actions, [
    { kind: 'RemoveMember', memberId: idOf(4), name: 'demo-4' },
    { kind: 'EnsureObjects', version: '3.4.0', replicas: 4 },
  ]);
  assert.deepEqual(reasons(plan), ['MemberRemoved']);
});

void test('scale down: a slot beyond spec.size that is no longer a member is stopped', () => {
  const o = healthy('3.4.0', 4);
  const plan = reconcile(cluster({ size: 3 }, status()), { ...o, clusterMembers: (o.clusterMembers ?? []).slice(0, 3) });
  assert.deepEqual(plan.actions, [{ kind: 'EnsureObjects', version: '3.4.0', replicas: 3 }]);
});

void test('new members get the version the members run, not a pending spec.version', () => {
  const plan = reconcile(cluster({ size: 5, version: '3.5.0' }, status()), growing(3));
  assert.deepEqual(plan.actions[1], { kind: 'EnsureObjects', version: '3.4.0', replicas: 4 });
});

void test('replace: a member removed from the membership whose slot still runs → AddLearner + ResetMember (rejoins empty)', () => {
  const o = healthy('3.4.0');
  const plan = reconcile(cluster({}, status()), { ...o, clusterMembers: (o.clusterMembers ?? []).filter((c) => c.name !== 'demo-1') });
  assert.deepEqual(plan.actions, [
    { kind: 'AddLearner', name: 'demo-1', peerURL: 'http://127.0.0.11:2380' },
    { kind: 'ResetMember', name: 'demo-1' },
  ]);
  assert.deepEqual(reasons(plan), ['MemberReplaced']);
});

const degradedSince = (t: string) =>
  status({ phase: 'Degraded', conditions: [{ type: 'Degraded', status: 'True', reason: 'MemberUnreachable', message: '', lastTransitionTime: t }] });

void test('replace: unreachable for less than memberHealthTimeoutSeconds → only Degraded', () => {
  const o = withMember(healthy('3.4.0'), member(2, '3.4.0', { probe: null }));
  const plan = reconcile(cluster({}, degradedSince(NOW)), { ...o, now: '2026-03-01T10:04:00Z' });
  assert.deepEqual(plan.actions, []);
  assert.equal(condition(plan, 'Degraded').status, 'True');
  assert.equal(condition(plan, 'Degraded').reason, 'MemberUnreachable');
  assert.equal(condition(plan, 'Degraded').lastTransitionTime, NOW);
  assert.equal(plan.status.phase, 'Degraded');
  assert.equal(condition(plan, 'Available').status, 'True');
});

void test('replace: unreachable for longer, the others healthy with a leader → RemoveMember (re-added empty next)', () => {
  const o = withMember(healthy('3.4.0'), member(2, '3.4.0', { probe: null }));
  const plan = reconcile(cluster({}, degradedSince(NOW)), { ...o, now: LATER });
  assert.deepEqual(plan.actions, [{ kind: 'RemoveMember', memberId: idOf(2), name: 'demo-2' }]);
  assert.deepEqual(plan.events.map((e) => [e.type, e.reason]), [['Warning', 'MemberReplacing']]);
});

void test('replace: two members unreachable → never replaced automatically', () => {
  let o = withMember(healthy('3.4.0', 5), member(3, '3.4.0', { probe: null }));
  o = withMember(o, member(4, '3.4.0', { probe: null }));
  const plan = reconcile(cluster({ size: 5 }, degradedSince(NOW)), { ...o, now: LATER });
  assert.deepEqual(kinds(plan), []);
});

void test('membership changes wait while an upgrade is under way', () => {
  const up = { from: '3.4.0', to: '3.5.0', state: 'UpgradingMembers', membersDone: [], startedAt: NOW } as const;
  const plan = reconcile(cluster({ size: 5, version: '3.5.0' }, status({}, up)), growing(3));
  assert.ok(!kinds(plan).includes('AddLearner'));
});

// Replacing a failed member (membership/replace.ts): data lost or unhealthy beyond the timeout.

void test('replace: data lost (the platform says so) → RemoveMember at once, MemberReplacing names DataLost', () => {
  const o = withMember(healthy('3.4.0'), member(1, '3.4.0', { running: false, dataLost: true, probe: null }));
  const plan = reconcile(cluster({}, status()), o);
  assert.deepEqual(plan.actions, [{ kind: 'RemoveMember', memberId: idOf(1), name: 'demo-1' }]);
  assert.deepEqual(plan.events.map((e) => [e.type, e.reason]), [['Warning', 'MemberReplacing']]);
  assert.match(plan.events[0].message, /reason DataLost/);
  assert.equal(condition(plan, 'Degraded').reason, 'MemberDataLost');
  assert.equal(condition(plan, 'Progressing').reason, 'ReplacingMember');
  assert.equal(plan.status.phase, 'Scaling');
});

void test('replace: a member answering with another member id than its membership entry → DataLost, at once', () => {
  const o = withMember(healthy('3.4.0'), member(2, '3.4.0', { probe: { memberId: 'abcdef0123456789' } }));
  const plan = reconcile(cluster({}, status()), o);
  assert.deepEqual(plan.actions, [{ kind: 'RemoveMember', memberId: idOf(2), name: 'demo-2' }]);
  assert.match(plan.events[0].message, /answers as member abcdef0123456789.*reason DataLost/);
});

void test('replace: reachable but /health false beyond the timeout → RemoveMember, reason Unhealthy', () => {
  const o = withMember(healthy('3.4.0'), member(2, '3.4.0', { probe: { healthy: false } }));
  const early = reconcile(cluster({}, degradedSince(NOW)), { ...o, now: '2026-03-01T10:04:00Z' });
  assert.deepEqual(early.actions, []);
  const plan = reconcile(cluster({}, degradedSince(NOW)), { ...o, now: LATER });
  assert.deepEqual(plan.actions, [{ kind: 'RemoveMember', memberId: idOf(2), name: 'demo-2' }]);
  assert.match(plan.events[0].message, /demo-2 is not healthy for more than \d+s \(reason Unhealthy\)/);
});

void test('replace: the clock is the member\'s own unhealthySince, not only Degraded (one member recovered as another failed)', () => {
  // Degraded has been True since NOW (demo-1 was down); demo-1 came back as demo-2 failed at 10:08.
  const o = withMember(healthy('3.4.0'), member(2, '3.4.0', { probe: { healthy: false } }));
  const first = reconcile(cluster({}, degradedSince(NOW)), { ...o, now: '2026-03-01T10:08:00Z' });
  const entry = first.status.members?.find((m) => m.name === 'demo-2');
  assert.equal(entry?.unhealthySince, '2026-03-01T10:08:00Z');
  assert.equal(first.status.members?.find((m) => m.name === 'demo-1')?.unhealthySince, undefined);
  // 10:10: Degraded is 10 min old, demo-2 unhealthy for 2 min (< 300 s) → only Degraded; its clock is kept.
  const early = reconcile(cluster({}, first.status), { ...o, now: LATER });
  assert.deepEqual(early.actions, []);
  assert.equal(early.status.members?.find((m) => m.name === 'demo-2')?.unhealthySince, '2026-03-01T10:08:00Z');
  // 10:13:01: demo-2 has been unhealthy for more than 300 s → replaced.
  const late = reconcile(cluster({}, early.status), { ...o, now: '2026-03-01T10:13:01Z' });
  assert.deepEqual(late.actions, [{ kind: 'RemoveMember', memberId: idOf(2), name: 'demo-2' }]);
  // Ready again: the clock is dropped; a new failure starts a new one.
  const back = reconcile(cluster({}, early.status), { ...healthy('3.4.0'), now: '2026-03-01T10:11:00Z' });
  assert.equal(back.status.members?.find((m) => m.name === 'demo-2')?.unhealthySince, undefined);
});

void test('replace: running but no linearizable read beyond the timeout → reason Unhealthy', () => {
  const o = withMember(healthy('3.4.0'), member(1, '3.4.0', { probe: { linearizableRead: false } }));
  const plan = reconcile(cluster({}, degradedSince(NOW)), { ...o, now: LATER });
  assert.deepEqual(kinds(plan), ['RemoveMember']);
});

void test('replace: never with two failed members (data lost + unhealthy, or two data lost)', () => {
  let o = withMember(healthy('3.4.0', 5), member(3, '3.4.0', { running: false, dataLost: true, probe: null }));
  o = withMember(o, member(4, '3.4.0', { probe: { healthy: false } }));
  assert.deepEqual(kinds(reconcile(cluster({ size: 5 }, degradedSince(NOW)), { ...o, now: LATER })), []);
  o = withMember(o, member(4, '3.4.0', { running: false, dataLost: true, probe: null }));
  assert.deepEqual(kinds(reconcile(cluster({ size: 5 }, degradedSince(NOW)), { ...o, now: LATER })), []);
});

void test('replace: never with fewer than 3 voting members (the removal needs the failed member for quorum)', () => {
  // 3 slots but only 2 voting members (and no learner): the membership is short, never shrunk further.
  const lost = withMember(healthy('3.4.0'), member(1, '3.4.0', { running: false, dataLost: true, probe: null }));
  const two = { ...lost, clusterMembers: (lost.clusterMembers ?? []).filter((c) => c.name !== 'demo-2') };
  assert.ok(!kinds(reconcile(cluster({}, degradedSince(NOW)), { ...two, now: LATER })).includes('RemoveMember'));
  const one = withMember(healthy('3.4.0', 1), member(0, '3.4.0', { probe: { healthy: false, isLeader: true } }));
  assert.deepEqual(kinds(reconcile(cluster({ size: 1 }, degradedSince(NOW)), { ...one, now: LATER })), []);
});

void test('replace: never while an upgrade is under way, nor when the others have no leader', () => {
  const o = withMember(healthy('3.4.0'), member(1, '3.4.0', { running: false, dataLost: true, probe: null }));
  const up = { from: '3.4.0', to: '3.5.0', state: 'UpgradingMembers', membersDone: [], startedAt: NOW } as const;
  assert.ok(!kinds(reconcile(cluster({ version: '3.5.0' }, status({}, up)), o)).includes('RemoveMember'));
  const blocked = { ...up, state: 'Blocked', reason: 'MemberHealthTimeout' } as const;
  assert.ok(!kinds(reconcile(cluster({ version: '3.5.0' }, status({}, blocked)), o)).includes('RemoveMember'));
  const leaderless = withMember(o, member(0, '3.4.0', { probe: { isLeader: false } }));
  assert.deepEqual(kinds(reconcile(cluster({}, status()), leaderless)), []);
});

void test('replace: never when the failed member is the only leader the others would follow', () => {
  // The member with the lost identity still leads: the others report no leader of their own.
  let o = withMember(healthy('3.4.0'), member(0, '3.4.0', { probe: { isLeader: false } }));
  o = withMember(o, member(2, '3.4.0', { probe: { isLeader: true, memberId: 'abcdef0123456789' } }));
  assert.deepEqual(kinds(reconcile(cluster({}, status()), o)), []);
  // Two claim leadership, one of them the failed member: wait until that settles.
  const both = withMember(o, member(0, '3.4.0', { probe: { isLeader: true } }));
  assert.deepEqual(kinds(reconcile(cluster({}, status()), both)), []);
});

void test('replace: with a learner pending, the learner is handled first (no removal)', () => {
  const o = withMember(healthy('3.4.0'), member(1, '3.4.0', { running: false, dataLost: true, probe: null }));
  const cm = [...(o.clusterMembers ?? []), { id: idOf(3), name: 'demo-3', peerURLs: ['http://127.0.0.13:2380'], isLearner: true }];
  assert.ok(!kinds(reconcile(cluster({}, status()), { ...o, clusterMembers: cm })).includes('RemoveMember'));
});

void test('replace: after the removal the slot is re-added as a learner, MemberReplaced naming the reason', () => {
  const lost = member(1, '3.4.0', { running: false, dataLost: true, probe: null });
  const o = withMember(healthy('3.4.0'), lost);
  const removed = { ...o, clusterMembers: (o.clusterMembers ?? []).filter((c) => c.name !== 'demo-1') };
  const plan = reconcile(cluster({}, status()), removed);
  assert.deepEqual(plan.actions, [
    { kind: 'AddLearner', name: 'demo-1', peerURL: 'http://127.0.0.11:2380' },
    { kind: 'ResetMember', name: 'demo-1' },
  ]);
  assert.deepEqual(reasons(plan), ['MemberReplaced']);
  assert.match(plan.events[0].message, /reason DataLost/);
  const down = withMember(healthy('3.4.0'), member(1, '3.4.0', { probe: null }));
  const again = reconcile(cluster({}, status()), { ...down, clusterMembers: removed.clusterMembers });
  assert.match(again.events[0].message, /reason Unhealthy/);
});
