// CPU shares: % of the machine and CPU µs per request, and what is left for other processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuShare, formatMicrosPerOp, formatShare, otherCores } from '../../../bench/cpu-share.js';

void test('half a core on 2 cores at 10 000 req/s is 25 % of the machine and 50 µs per request', () => {
  assert.deepEqual(cpuShare(0.5, 10_000, 2), { cores: 0.5, percentOfMachine: 25, microsPerOp: 50 });
  assert.equal(formatShare(cpuShare(0.5, 10_000, 2)), '0.50 (25 %)');
  assert.equal(formatMicrosPerOp(cpuShare(0.5, 10_000, 2)), '50');
});

void test('no completed requests: no cost per request (NaN, shown as –)', () => {
  const s = cpuShare(0.3, 0, 2);
  assert.ok(Number.isNaN(s.microsPerOp));
  assert.equal(formatMicrosPerOp(s), '–');
  assert.equal(formatShare(cpuShare(NaN, 1, 2)), '–');
});

void test('other processes: busy minus the known ones, clamped at 0 for clock-tick rounding', () => {
  assert.ok(Math.abs(otherCores(1.9, 0.8, 0.3) - 0.8) < 1e-9);
  assert.equal(otherCores(1.0, 0.8, 0.3), 0);
});
