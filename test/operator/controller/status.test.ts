// Table tests: the status written every pass — members[], readyMembers, clusterVersion,
// observedGeneration, conditions and their transition times.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reconcile } from '../../../operator/controller/reconcile.js';
import { cluster, condition, healthy, member, NOW, status, withMember } from './fixtures.js';

void test('members[] from the observation: name, id, version, healthy, leader, clientURL, unhealthySince', () => {
  const o = withMember(healthy('3.4.0', 3, 1), member(2, '3.4.0', { probe: null }));
  const plan = reconcile(cluster({}, status(), 7), o);
  assert.deepEqual(plan.status.members, [
    { name: 'demo-0', id: '0000000000001000', version: '3.4.0', healthy: true, leader: false, clientURL: 'http://127.0.0.10:2379' },
    { name: 'demo-1', id: '0000000000001001', version: '3.4.0', healthy: true, leader: true, clientURL: 'http://127.0.0.11:2379' },
    { name: 'demo-2', id: '', version: '', healthy: false, leader: false, clientURL: 'http://127.0.0.12:2379', unhealthySince: NOW },
  ]);
  assert.equal(plan.status.readyMembers, '2/3');
  assert.equal(plan.status.observedGeneration, 7);
  assert.ok(plan.status.conditions.every((c) => c.observedGeneration === 7));
});

void test('clusterVersion: the lowest cluster version the members report', () => {
  const o = withMember(healthy('3.5.0'), member(1, '3.5.0', { probe: { clusterVersion: '3.4.0' } }));
  assert.equal(reconcile(cluster({ version: '3.5.0' }, status()), o).status.clusterVersion, '3.4.0');
  assert.equal(reconcile(cluster({ version: '3.5.0' }, status()), healthy('3.5.0')).status.clusterVersion, '3.5.0');
});

void test('conditions: all five, in order; lastTransitionTime changes only when the status flips', () => {
  const first = reconcile(cluster({}, status()), healthy('3.4.0'));
  assert.deepEqual(first.status.conditions.map((c) => [c.type, c.status]), [
    ['Available', 'True'],
    ['Progressing', 'False'],
    ['Degraded', 'False'],
    ['Upgrading', 'False'],
    ['UpgradeBlocked', 'False'],
  ]);
  const later = '2026-03-01T11:00:00Z';
  const broken = withMember({ ...healthy('3.4.0'), now: later }, member(2, '3.4.0', { probe: { healthy: false } }));
  const second = reconcile(cluster({}, first.status), broken);
  assert.equal(condition(second, 'Available').lastTransitionTime, NOW);
  assert.equal(condition(second, 'Degraded').status, 'True');
  assert.equal(condition(second, 'Degraded').reason, 'MemberUnhealthy');
  assert.equal(condition(second, 'Degraded').lastTransitionTime, later);
  const third = reconcile(cluster({}, second.status), { ...broken, now: '2026-03-01T12:00:00Z' });
  assert.equal(condition(third, 'Degraded').lastTransitionTime, later);
});

void test('Available False when a majority is not healthy', () => {
  let o = withMember(healthy('3.4.0'), member(1, '3.4.0', { probe: null }));
  o = withMember(o, member(2, '3.4.0', { probe: null }));
  const plan = reconcile(cluster({}, status()), o);
  assert.equal(condition(plan, 'Available').status, 'False');
  assert.equal(condition(plan, 'Available').reason, 'QuorumLost');
  assert.equal(plan.status.phase, 'Degraded');
});

void test('an alarm makes the cluster Degraded', () => {
  const plan = reconcile(cluster({}, status()), withMember(healthy('3.4.0'), member(1, '3.4.0', { probe: { alarms: ['NOSPACE'] } })));
  assert.equal(condition(plan, 'Degraded').reason, 'AlarmActive');
});

void test('steady: the template follows the version every member runs', () => {
  const plan = reconcile(cluster({}, status()), { ...healthy('3.4.0'), templateVersion: '3.5.0' });
  assert.deepEqual(plan.actions, [{ kind: 'SetTemplateVersion', version: '3.4.0' }]);
  assert.ok((plan.requeueAfterSeconds ?? 0) > 0);
});
