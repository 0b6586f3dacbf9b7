// The strict reconfiguration decision as a table: voters, what the transport knows, the clock
// → Ok / NotEnoughStartedMembers / Unhealthy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  connectedVoters,
  HEALTH_INTERVAL_MS,
  mayAddMember,
  mayRemoveMember,
  type ReconfigView,
} from '../../../server/membership/reconfig-check.js';

const NOW = 1_000_000;
const LONG_AGO = NOW - HEALTH_INTERVAL_MS - 1;
const JUST_NOW = NOW - 100;

/** Voters 1..n, self = 1, all started; `since` gives each peer's activeSince (absent = down). */
function view(n: number, since: Record<number, number | undefined>, opts: { unstarted?: number[]; noTransport?: boolean } = {}): ReconfigView {
  const voters = Array.from({ length: n }, (_, i) => ({ id: BigInt(i + 1), started: !(opts.unstarted ?? []).includes(i + 1) }));
  return {
    self: 1n,
    voters,
    now: NOW,
    ...(opts.noTransport ? {} : { activeSince: (id: bigint) => since[Number(id)] }),
  };
}

const all = (n: number, t: number): Record<number, number> => Object.fromEntries(Array.from({ length: n - 1 }, (_, i) => [i + 2, t]));

void test('connected voters: self always counts; a peer counts once connected for longer than the health interval', () => {
  assert.equal(connectedVoters(view(3, { 2: LONG_AGO, 3: JUST_NOW })), 2);
  assert.equal(connectedVoters(view(3, { 2: NOW - HEALTH_INTERVAL_MS })), 1, 'exactly 5 s is not yet "before" the bound');
  assert.equal(connectedVoters(view(3, {})), 1);
  assert.equal(connectedVoters(view(3, {}, { noTransport: true })), undefined);
});

const addCases: Array<[string, ReconfigView, boolean, string]> = [
  ['3 voters all connected long: voter add ok', view(3, all(3, LONG_AGO)), false, 'Ok'],
  ['one peer down: voter add unhealthy', view(3, { 2: LONG_AGO }), false, 'Unhealthy'],
  ['one peer down: learner add is checked too (the reference checks connectivity for any add)', view(3, { 2: LONG_AGO }), true, 'Unhealthy'],
  ['a peer connected only just now: unhealthy', view(3, { 2: LONG_AGO, 3: JUST_NOW }), false, 'Unhealthy'],
  ['single member grows to two', view(1, {}), false, 'Ok'],
  ['no transport view: connectivity not checked', view(3, {}, { noTransport: true }), false, 'Ok'],
  ['2 of 3 started, 4 voters need 3: not enough started', view(3, all(3, LONG_AGO), { unstarted: [3] }), false, 'NotEnoughStartedMembers'],
  ['started check comes first', view(3, {}, { unstarted: [2, 3] }), false, 'NotEnoughStartedMembers'],
  ['learner add skips the started check', view(3, all(3, LONG_AGO), { unstarted: [2, 3] }), true, 'Ok'],
];
for (const [name, v, learner, want] of addCases) {
  void test(`add: ${name}`, () => assert.equal(mayAddMember(v, learner).kind, want));
}

const removeCases: Array<[string, ReconfigView, { id: bigint; isLearner: boolean }, string]> = [
  ['remove a learner: always ok', view(3, {}), { id: 9n, isLearner: true }, 'Ok'],
  ['remove the downed member of 3', view(3, { 2: LONG_AGO }), { id: 3n, isLearner: false }, 'Ok'],
  ['remove a live member while another is down: 2 connected − 1 < quorum(2) = 2', view(3, { 2: LONG_AGO }), { id: 2n, isLearner: false }, 'Unhealthy'],
  ['remove a live member of 3, all connected: 3 − 1 ≥ 2', view(3, all(3, LONG_AGO)), { id: 2n, isLearner: false }, 'Ok'],
  ['remove self while a peer is down', view(3, { 2: LONG_AGO }), { id: 1n, isLearner: false }, 'Unhealthy'],
  ['remove self of 3, all connected', view(3, all(3, LONG_AGO)), { id: 1n, isLearner: false }, 'Ok'],
  ['5 voters, one down, remove a live one: 4 − 1 ≥ quorum(4) = 3', view(5, { 2: LONG_AGO, 3: LONG_AGO, 4: LONG_AGO }), { id: 2n, isLearner: false }, 'Ok'],
  ['5 voters, two down, remove a live one: 3 − 1 < 3', view(5, { 2: LONG_AGO, 3: LONG_AGO }), { id: 2n, isLearner: false }, 'Unhealthy'],
  ['a peer connected only just now counts as not connected', view(3, { 2: LONG_AGO, 3: JUST_NOW }), { id: 2n, isLearner: false }, 'Unhealthy'],
  ['no transport view: ok', view(3, {}, { noTransport: true }), { id: 2n, isLearner: false }, 'Ok'],
  ['remaining voters mostly unstarted: not enough started', view(3, all(3, LONG_AGO), { unstarted: [2] }), { id: 3n, isLearner: false }, 'NotEnoughStartedMembers'],
];
for (const [name, v, target, want] of removeCases) {
  void test(`remove: ${name}`, () => assert.equal(mayRemoveMember(v, target).kind, want));
}

void test('an unhealthy verdict carries the connected voter count (self included)', () => {
  assert.deepEqual(mayRemoveMember(view(3, { 2: LONG_AGO }), { id: 2n, isLearner: false }), { kind: 'Unhealthy', activePeers: 2 });
  assert.deepEqual(mayAddMember(view(3, {}), false), { kind: 'Unhealthy', activePeers: 1 });
});
