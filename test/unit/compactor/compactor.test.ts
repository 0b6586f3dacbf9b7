import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Compactor } from '../../../server/compactor/compactor.js';

void test('periodic: compacts to the newest sample at least one retention old', () => {
  const hour = 3_600_000;
  const c = new Compactor({ mode: 'periodic', retentionMs: hour }, 0);
  assert.equal(c.intervalMs, hour / 10);
  assert.equal(c.tick(0, 10n, 0n), undefined);
  assert.equal(c.tick(hour / 2, 20n, 0n), undefined);
  assert.equal(c.tick(hour, 30n, 0n), 10n);
  assert.equal(c.tick(hour + hour / 2, 40n, 10n), 20n);
});

void test('periodic: never compacts the same or an older revision twice', () => {
  const c = new Compactor({ mode: 'periodic', retentionMs: 1000 }, 0);
  c.tick(0, 5n, 0n);
  assert.equal(c.tick(1000, 5n, 0n), 5n);
  assert.equal(c.tick(2000, 5n, 5n), undefined);
});

void test('revision: keeps the last N revisions, checking every five minutes', () => {
  const c = new Compactor({ mode: 'revision', retention: 100n }, 0);
  assert.equal(c.tick(1000, 500n, 0n), undefined);
  assert.equal(c.tick(300_000, 500n, 0n), 400n);
  assert.equal(c.tick(450_000, 900n, 400n), undefined);
  assert.equal(c.tick(600_000, 900n, 400n), 800n);
  assert.equal(c.tick(900_000, 150n, 800n), undefined);
});
