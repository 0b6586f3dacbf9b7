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

const cases: ReadonlyArray<readonly [string | undefined, string | undefined, ReturnType<typeof nextClusterVersion>]> = [
  [undefined, undefined, { kind: 'initial', to: '3.0' }],
  [undefined, '3.4', { kind: 'initial', to: '3.0' }],
  ['3.0', '3.4', { kind: 'update', from: '3.0', to: '3.4' }],
  ['3.4', '3.5', { kind: 'update', from: '3.4', to: '3.5' }],
  ['3.4', '3.4', undefined],
  ['3.5', '3.4', undefined],
  ['3.4', undefined, undefined],
  ['3.4', '4.0', undefined],
];
void test('a lone member starts at its own version', () => {
  assert.deepEqual(nextClusterVersion(undefined, '3.5', true), { kind: 'initial', to: '3.5' });
});

for (const [current, decided, want] of cases) {
  void test(`next cluster version: current ${current} decided ${decided}`, () => {
    assert.deepEqual(nextClusterVersion(current, decided), want);
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
