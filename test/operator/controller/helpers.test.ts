// Unit tests of the pure helpers under reconcile: versions, RFC 3339 arithmetic, snapshot names,
// member order, path facts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVersions, lowestVersion, parseMinor, parseVersion } from '../../../operator/controller/upgrade/version.js';
import { addSeconds, compactTime, secondsBetween } from '../../../operator/controller/time.js';
import { snapshotFileName } from '../../../operator/controller/upgrade/snapshot.js';
import { rollOrder } from '../../../operator/controller/upgrade/order.js';
import { hasOnlyV2Data, validatePath } from '../../../operator/controller/upgrade/path.js';
import { healthy, member } from './fixtures.js';

void test('versions parse strictly and compare numerically', () => {
  assert.deepEqual(parseVersion('3.4.10'), { major: 3, minor: 4, patch: 10 });
  for (const bad of ['', '3.4', 'v3.4.0', '3.4.0-rc1', '03.4.0']) assert.equal(parseVersion(bad), undefined);
  assert.ok(compareVersions(parseVersion('3.4.10')!, parseVersion('3.4.9')!) > 0);
  assert.equal(lowestVersion(['3.5.0', '3.4.10', '3.4.9', 'x']), '3.4.9');
  assert.deepEqual(parseMinor('3.5'), { major: 3, minor: 5, patch: 0 });
});

void test('time: adds, measures and compacts RFC 3339 times at second precision', () => {
  assert.equal(addSeconds('2026-03-01T23:59:30Z', 45), '2026-03-02T00:00:15Z');
  assert.equal(secondsBetween('2026-03-01T10:00:00Z', '2026-03-01T10:02:00Z'), 120);
  assert.equal(secondsBetween('2026-03-01T10:02:00Z', '2026-03-01T10:00:00Z'), -120);
  assert.equal(compactTime('2026-03-01T10:00:05.250Z'), '20260301T100005Z');
  assert.equal(snapshotFileName('prod', '3.4.0', '3.5.0', '2026-03-01T10:00:05Z'), 'prod-3.4.0-to-3.5.0-20260301T100005Z.db');
});

void test('roll order: followers by ordinal, the leader last, members already on the target skipped', () => {
  const o = healthy('3.4.0', 5, 2);
  const slots = o.members.map((m) => (m.ordinal === 3 ? member(3, '3.5.0') : m));
  assert.deepEqual(rollOrder(slots, '3.5.0').map((m) => m.name), ['demo-0', 'demo-1', 'demo-4', 'demo-2']);
});

void test('path: the v2-only rule needs v2 data beyond bookkeeping and an empty v3 key space', () => {
  assert.equal(hasOnlyV2Data({ authEnabled: false, v2StoreBytes: 100_000, revision: 1 }), true);
  assert.equal(hasOnlyV2Data({ authEnabled: false, v2StoreBytes: 100_000, revision: 2 }), false);
  assert.equal(hasOnlyV2Data({ authEnabled: false, v2StoreBytes: 500, revision: 1 }), false);
  assert.equal(hasOnlyV2Data({ authEnabled: false, v2StoreBytes: undefined, revision: 1 }), false);
  const facts = { authEnabled: false, v2StoreBytes: 0, revision: 10 };
  assert.deepEqual(validatePath('3.3.0', '3.5.0', facts), { ok: false, reason: 'SkipsMinorVersion', message: '3.3.0 → 3.5.0 skips a minor version: upgrade to 3.4.x first (one minor step at a time)' });
  assert.equal(validatePath('3.4.3', '3.4.0', facts).ok, true);
});
