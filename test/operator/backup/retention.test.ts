// Table tests of backup retention (operator/controller/backup/retention.ts) and backup names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backupName, backupTime } from '../../../operator/controller/backup/names.js';
import { selectPrune } from '../../../operator/controller/backup/retention.js';
import type { RetainedBackup } from '../../../operator/api/types.js';

const NOW = '2026-03-01T10:00:00Z';
const b = (time: string): RetainedBackup => ({ name: backupName('demo', time), uri: `/b/${backupName('demo', time)}`, time, size: 10 });
const H = (h: number): string => new Date(Date.parse(NOW) - h * 3600_000).toISOString().replace('.000Z', 'Z');
const stored = [b(H(50)), b(H(30)), b(H(20)), b(H(10)), b(H(0))];
const newest = stored[4].name;

const CASES: readonly (readonly [what: string, retention: { maxCount: number; maxAgeHours?: number }, keep: string, dropped: readonly number[]])[] = [
  ['count only, under the limit', { maxCount: 7 }, newest, []],
  ['count only, two over', { maxCount: 3 }, newest, [0, 1]],
  ['count 1 keeps only the newest', { maxCount: 1 }, newest, [0, 1, 2, 3]],
  ['age only: older than 24 h', { maxCount: 10, maxAgeHours: 24 }, newest, [0, 1]],
  ['age and count: age first, then count', { maxCount: 2, maxAgeHours: 24 }, newest, [0, 1, 2]],
  ['the backup just taken is kept even when too old', { maxCount: 1, maxAgeHours: 1 }, stored[0].name, [1, 2, 3, 4]],
];

for (const [what, retention, keep, dropped] of CASES) {
  void test(`retention: ${what}`, () => {
    assert.deepEqual(selectPrune(stored, retention, NOW, keep), dropped.map((i) => stored[i].name));
  });
}

void test('retention: order of the listing does not matter (sorted by the time in the name)', () => {
  assert.deepEqual(selectPrune([...stored].reverse(), { maxCount: 3 }, NOW, newest), [stored[0].name, stored[1].name]);
});

void test('backup names: <cluster>-<yyyymmddThhmmssZ>.db, other clusters and .part files are not ours', () => {
  assert.equal(backupName('demo', NOW), 'demo-20260301T100000Z.db');
  assert.equal(backupTime('demo', 'demo-20260301T100000Z.db'), NOW);
  assert.equal(backupTime('demo', 'demo-20260301T100000Z.db.part'), undefined);
  assert.equal(backupTime('demo', 'demo-x-20260301T100000Z.db'), undefined);
  assert.equal(backupTime('demo-x', 'demo-20260301T100000Z.db'), undefined);
  assert.equal(backupTime('demo', 'demo-3.4.0-to-3.5.0-20260301T100000Z.db'), undefined);
});
