// Table tests: starting an upgrade — path validation, the gates, the snapshot before any member.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcile } from '../../../operator/controller/reconcile.js';
import type { MemberProbe, Observed } from '../../../operator/controller/model.js';
import { cluster, condition, healthy, kinds, member, NOW, reasons, status, withMember } from './fixtures.js';

interface RefusalCase {
  readonly name: string;
  readonly from: string;
  readonly to: string;
  readonly probe?: Partial<MemberProbe>;
  readonly reason: string;
}

const refusals: readonly RefusalCase[] = [
  { name: 'skipping a minor version (3.3 → 3.5)', from: '3.3.0', to: '3.5.0', reason: 'SkipsMinorVersion' },
  { name: 'skipping two minor versions (3.2 → 3.5)', from: '3.2.31', to: '3.5.0', reason: 'SkipsMinorVersion' },
  { name: '3.2 below 3.2.31 with auth must go to 3.2.31 first', from: '3.2.10', to: '3.3.0', probe: { authEnabled: true }, reason: 'AuthNeeds3231' },
  { name: '3.4 → 3.5 with auth enabled', from: '3.4.0', to: '3.5.0', probe: { authEnabled: true }, reason: 'AuthUnsupported' },
  { name: '3.4 → 3.5 with the auth status unreadable (fail safe)', from: '3.4.0', to: '3.5.0', probe: { authEnabled: undefined }, reason: 'AuthStatusUnknown' },
  { name: '3.2 below 3.2.31 with the auth status unreadable (fail safe)', from: '3.2.10', to: '3.3.0', probe: { authEnabled: undefined }, reason: 'AuthStatusUnknown' },
  { name: 'v2 data and no v3 data', from: '3.4.0', to: '3.5.0', probe: { v2StoreBytes: 200_000, revision: 1 }, reason: 'V2OnlyData' },
  { name: 'an unsupported target', from: '3.4.0', to: '3.6.0', reason: 'UnsupportedVersion' },
  { name: 'a target that is not a version', from: '3.4.0', to: 'latest', reason: 'UnsupportedVersion' },
  { name: 'a minor downgrade with no upgrade under way', from: '3.4.0', to: '3.3.0', reason: 'DowngradeRefused' },
];

for (const c of refusals) {
  void test(`refused: ${c.name} → ${c.reason}, a Warning event, nothing touched`, () => {
    const obs = healthy(c.from);
    const observed: Observed = { ...obs, members: obs.members.map((m) => member(m.ordinal, c.from, { probe: { isLeader: m.ordinal === 0, ...c.probe } })) };
    const plan = reconcile(cluster({ version: c.to }, status({ clusterVersion: '' })), observed);
    assert.deepEqual(plan.actions, []);
    assert.equal(condition(plan, 'UpgradeBlocked').status, 'True');
    assert.equal(condition(plan, 'UpgradeBlocked').reason, c.reason);
    assert.equal(plan.status.phase, 'UpgradeBlocked');
    assert.equal(plan.status.upgrade, undefined);
    assert.equal(plan.events.length, 1);
    assert.equal(plan.events[0]?.type, 'Warning');
    assert.ok(plan.events[0]?.message.length ?? 0 > 10);
    assert.ok(plan.requeueAfterSeconds !== undefined);
    // The next pass with the block recorded emits no second event.
    const again = reconcile(cluster({ version: c.to }, plan.status), observed);
    assert.deepEqual(again.events, []);
    assert.equal(condition(again, 'UpgradeBlocked').lastTransitionTime, condition(plan, 'UpgradeBlocked').lastTransitionTime);
  });
}

const allowed: readonly { name: string; from: string; to: string; probe?: Partial<MemberProbe> }[] = [
  { name: 'one minor step 3.4 → 3.5', from: '3.4.0', to: '3.5.0' },
  { name: 'one minor step 3.2.31 with auth → 3.3', from: '3.2.31', to: '3.3.0', probe: { authEnabled: true } },
  { name: '3.2 below 3.2.31 without auth → 3.3', from: '3.2.10', to: '3.3.0' },
  { name: '3.3 → 3.4 with auth', from: '3.3.5', to: '3.4.0', probe: { authEnabled: true } },
  { name: 'a patch upgrade 3.4.0 → 3.4.1', from: '3.4.0', to: '3.4.1' },
  { name: '3.3 → 3.4 with the auth status unreadable (no auth rule on this path)', from: '3.3.5', to: '3.4.0', probe: { authEnabled: undefined } },
  { name: 'a patch upgrade with the auth status unreadable', from: '3.4.0', to: '3.4.1', probe: { authEnabled: undefined } },
  { name: 'a patch downgrade within the line', from: '3.4.2', to: '3.4.1' },
  { name: 'an empty store (v2 bookkeeping only, revision 1)', from: '3.4.0', to: '3.5.0', probe: { v2StoreBytes: 300, revision: 1 } },
  { name: 'v2 data alongside v3 data', from: '3.4.0', to: '3.5.0', probe: { v2StoreBytes: 200_000, revision: 40 } },
];

for (const c of allowed) {
  void test(`allowed: ${c.name} starts with the leader snapshot`, () => {
    const obs = healthy(c.from, 3, 1);
    const observed: Observed = { ...obs, members: obs.members.map((m) => member(m.ordinal, c.from, { probe: { isLeader: m.ordinal === 1, ...c.probe } })) };
    const plan = reconcile(cluster({ version: c.to }, status()), observed);
    assert.deepEqual(plan.actions, [
      { kind: 'TakeSnapshot', member: 'demo-1', clientURL: 'http://127.0.0.11:2379', file: `demo-${c.from}-to-${c.to}-20260301T100000Z.db`, forVersion: c.to },
    ]);
    assert.deepEqual(plan.status.upgrade, { from: c.from, to: c.to, state: 'Snapshotting', membersDone: [], startedAt: NOW });
    assert.deepEqual(reasons(plan), ['UpgradeStarted']);
    assert.equal(condition(plan, 'Upgrading').status, 'True');
    assert.equal(condition(plan, 'UpgradeBlocked').status, 'False');
    assert.equal(plan.status.phase, 'Upgrading');
  });
}

const gates: readonly { name: string; edit: (o: Observed) => Observed; reason: string }[] = [
  { name: 'a member unreachable', edit: (o) => withMember(o, member(2, '3.4.0', { probe: null })), reason: 'MemberUnreachable' },
  { name: 'a member not running', edit: (o) => withMember(o, member(2, '3.4.0', { running: false, probe: null })), reason: 'MemberNotRunning' },
  { name: '/health false', edit: (o) => withMember(o, member(2, '3.4.0', { probe: { healthy: false } })), reason: 'MemberUnhealthy' },
  { name: 'no linearizable read', edit: (o) => withMember(o, member(2, '3.4.0', { probe: { linearizableRead: false } })), reason: 'MemberUnhealthy' },
  { name: 'an alarm', edit: (o) => withMember(o, member(2, '3.4.0', { probe: { alarms: ['NOSPACE'] } })), reason: 'AlarmActive' },
  { name: 'no leader', edit: (o) => withMember(o, member(0, '3.4.0', { probe: { isLeader: false } })), reason: 'NoSingleLeader' },
  { name: 'two leaders', edit: (o) => withMember(o, member(2, '3.4.0', { probe: { isLeader: true } })), reason: 'NoSingleLeader' },
  {
    name: 'a learner pending',
    edit: (o) => ({ ...o, clusterMembers: [...(o.clusterMembers ?? []), { id: 'ff', name: 'demo-3', peerURLs: ['http://127.0.0.13:2380'], isLearner: true }] }),
    reason: 'LearnerPresent',
  },
];

for (const g of gates) {
  if (g.reason === 'LearnerPresent') continue; // before a start, a pending learner is the membership rule's (membership.test.ts)
  void test(`gate before starting: ${g.name} → no snapshot, no upgrade record, Progressing ${g.reason}`, () => {
    const plan = reconcile(cluster({ version: '3.5.0' }, status()), g.edit(healthy('3.4.0')));
    assert.deepEqual(kinds(plan).filter((k) => k === 'TakeSnapshot' || k === 'RestartMember'), []);
    assert.equal(plan.status.upgrade, undefined);
    assert.equal(condition(plan, 'Progressing').status, 'True');
    assert.equal(condition(plan, 'Progressing').reason, g.reason);
    assert.ok((plan.requeueAfterSeconds ?? 0) > 0);
  });
}

const midUpgrade = { from: '3.4.0', to: '3.5.0', state: 'UpgradingMembers', membersDone: ['demo-1'], startedAt: NOW } as const;

for (const g of gates) {
  void test(`gate before every member: ${g.name} → the next member waits, Progressing ${g.reason}`, () => {
    const base = withMember(healthy('3.4.0'), member(1, '3.5.0', { probe: { clusterVersion: '3.4.0' } }));
    const edited = g.edit(base);
    const plan = reconcile(cluster({ version: '3.5.0' }, status({}, midUpgrade)), edited);
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.status.upgrade?.currentMember, undefined);
    assert.equal(condition(plan, 'Progressing').reason, g.reason);
    assert.equal(plan.status.phase, 'Upgrading');
  });
}

void test('paused: a version change is observed and reported only', () => {
  const plan = reconcile(cluster({ version: '3.5.0', paused: true }, status()), healthy('3.4.0'));
  assert.deepEqual(plan.actions, []);
  assert.deepEqual(plan.events, []);
  assert.equal(plan.status.phase, 'Paused');
  assert.equal(condition(plan, 'Progressing').status, 'False');
  assert.equal(condition(plan, 'Progressing').reason, 'Paused');
  assert.equal(plan.status.readyMembers, '3/3');
});

void test('auth facts over the members: one "on" wins over an unreadable one; "unknown" needs no member saying "on"', () => {
  const mixed = (probes: readonly (boolean | undefined)[]): Observed => {
    const obs = healthy('3.4.0');
    return { ...obs, members: obs.members.map((m) => member(m.ordinal, '3.4.0', { probe: { isLeader: m.ordinal === 0, authEnabled: probes[m.ordinal] } })) };
  };
  const reasonOf = (probes: readonly (boolean | undefined)[]): string | undefined =>
    condition(reconcile(cluster({ version: '3.5.0' }, status({ clusterVersion: '' })), mixed(probes)), 'UpgradeBlocked').reason;
  assert.equal(reasonOf([undefined, true, false]), 'AuthUnsupported');
  assert.equal(reasonOf([false, undefined, false]), 'AuthStatusUnknown');
  const open = reconcile(cluster({ version: '3.5.0' }, status({ clusterVersion: '' })), mixed([false, false, false]));
  assert.deepEqual(kinds(open), ['TakeSnapshot']);
});
