import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions, decideVersion, joinProblem, majorMinor, nextClusterVersion } from '../../../server/clusterversion/versions.js';

void test('major.minor of server versions', () => {
  assert.equal(majorMinor('3.4.27'), '3.4');
  assert.equal(majorMinor('3.5'), '3.5');
  assert.equal(majorMinor('not_decided'), undefined);
});

void test('versions order numerically', () => {
  assert.ok(compareVersions('3.10', '3.9') > 0);
  assert.equal(compareVersions('3.4', '3.4'), 0);
  assert.ok(compareVersions('3.3', '3.4') < 0);
});

void test('the decided version is the lowest member version, unknown if any member is', () => {
  assert.equal(decideVersion(['3.5.0', '3.4.2', '3.5.1']), '3.4');
  assert.equal(decideVersion(['3.5.0', undefined]), undefined);
  assert.equal(decideVersion(['3.5.0', 'garbage']), undefined);
});

type Peer = { readonly version: string | undefined; readonly started: boolean };
const up = (version: string): Peer => ({ version, started: true });
/** Not asked successfully: `started` says whether it ever published its attributes. */
const silent = (started: boolean): Peer => ({ version: undefined, started });

const cases: ReadonlyArray<readonly [string, string | undefined, string, readonly Peer[], ReturnType<typeof nextClusterVersion>]> = [
  // A new cluster: the first decision is the lowest version among the members that answered.
  ['every member answered', undefined, '3.4.0', [up('3.4.0'), up('3.4.1')], { kind: 'initial', to: '3.4' }],
  ['a lower member answered', undefined, '3.5.0', [up('3.4.0'), up('3.5.0')], { kind: 'initial', to: '3.4' }],
  ['a lone member', undefined, '3.5.0', [], { kind: 'initial', to: '3.5' }],
  ['a member that never started does not hold it back', undefined, '3.4.0', [up('3.4.0'), silent(false)], { kind: 'initial', to: '3.4' }],
  ['a member that started but is silent: the minimum', undefined, '3.4.0', [up('3.4.0'), silent(true)], { kind: 'initial', to: '3.0' }],
  ['an unparsable answer: the minimum', undefined, '3.4.0', [up('garbage')], { kind: 'initial', to: '3.0' }],
  // A set version: raised only once every member answered.
  ['raise from the minimum', '3.0', '3.4.0', [up('3.4.0'), up('3.4.0')], { kind: 'update', from: '3.0', to: '3.4' }],
  ['raise after the last member moved', '3.4', '3.5.0', [up('3.5.0'), up('3.5.1')], { kind: 'update', from: '3.4', to: '3.5' }],
  ['mixed: no change', '3.4', '3.5.0', [up('3.4.0'), up('3.5.0')], undefined],
  ['equal: no change', '3.4', '3.4.0', [up('3.4.0')], undefined],
  ['never lowered', '3.5', '3.4.0', [up('3.4.0')], undefined],
  ['a silent member holds a raise back', '3.4', '3.5.0', [up('3.5.0'), silent(true)], undefined],
  ['a member that never started holds a raise back', '3.4', '3.5.0', [up('3.5.0'), silent(false)], undefined],
  ['not across a major', '3.5', '4.0.0', [up('4.0.0')], undefined],
];

for (const [what, current, local, peers, want] of cases) {
  void test(`next cluster version: ${what}`, () => {
    assert.deepEqual(nextClusterVersion(current, local, peers), want);
  });
}

void test('join rule: not below the cluster version, at most one minor above', () => {
  assert.equal(joinProblem('3.5', '3.4'), undefined);
  assert.equal(joinProblem('3.4', '3.4'), undefined);
  assert.match(joinProblem('3.3', '3.5') ?? '', /higher than this member/);
  assert.match(joinProblem('3.5', '3.3') ?? '', /more than one minor version ahead/);
  assert.match(joinProblem('4.0', '3.5') ?? '', /more than one minor version ahead/);
  assert.equal(joinProblem('3.5', '3.0'), undefined);
});
