/**
 * The idle collection policy (server/bootstrap/idle-gc.ts): it collects only when the last
 * period was idle, the heap grew enough since the last collection (or since the lowest point
 * seen: 64 MiB here, or a quarter of a bigger heap), and the last collection is old enough.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdleGcPolicy, type IdleGcSettings } from '../../../server/bootstrap/idle-gc.js';

const MiB = 1024 * 1024;
const settings: IdleGcSettings = { periodMs: 500, idleUtilization: 0.1, growthBytes: 64 * MiB, minIntervalMs: 10_000 };

void test('collects after growth once idle, then not again until it grows again and time passed', () => {
  const p = new IdleGcPolicy(100 * MiB, 0, settings);
  assert.equal(p.shouldCollect(500, 0.9, 300 * MiB), false, 'busy');
  assert.equal(p.shouldCollect(1000, 0.05, 150 * MiB), false, 'idle but grew less than 64 MiB');
  assert.equal(p.shouldCollect(1500, 0.05, 170 * MiB), true);
  p.collected(1600, 120 * MiB);
  assert.equal(p.shouldCollect(2000, 0.0, 170 * MiB), false, 'grew 50 MiB since');
  assert.equal(p.shouldCollect(2500, 0.0, 200 * MiB), false, 'grew enough, but the last collection is recent');
  assert.equal(p.shouldCollect(11_600, 0.0, 200 * MiB), true);
});

void test('a big heap must grow by a quarter', () => {
  const p = new IdleGcPolicy(800 * MiB, 0, settings);
  assert.equal(p.shouldCollect(500, 0.0, 900 * MiB), false);
  assert.equal(p.shouldCollect(1000, 0.0, 1000 * MiB), true);
});

void test('growth counts from the lowest point seen (the heap shrank by itself)', () => {
  const p = new IdleGcPolicy(200 * MiB, 0, settings);
  assert.equal(p.shouldCollect(500, 0.0, 100 * MiB), false);
  assert.equal(p.shouldCollect(1000, 0.0, 170 * MiB), true);
});
