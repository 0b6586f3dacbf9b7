// Checkpoint scheduling: which leases are due, with what remaining TTL, resets, and batching.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CheckpointSchedule,
  checkpointBatches,
  MAX_CHECKPOINTS_PER_PROPOSAL,
  type CheckpointView,
  type LeaseCheckpoint,
} from '../../../server/lease/checkpoint-schedule.js';

const INTERVAL = 10_000;
const views = (m: Record<string, CheckpointView>) => (id: bigint): CheckpointView | undefined => m[id.toString()];

void test('a lease that outlives the interval is due one interval after its timer started', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.start(1n, 0, 60n);
  const view = views({ 1: { expiryMs: 60_000, ttl: 60n } });
  assert.deepEqual(s.take(9_999, 10, view), []);
  assert.deepEqual(s.take(10_000, 10, view), [{ ID: 1n, remainingTTL: 50n }]);
  // rescheduled one interval later; the remaining TTL is rounded up
  assert.deepEqual(s.take(19_999, 10, view), []);
  assert.deepEqual(s.take(20_500, 10, view), [{ ID: 1n, remainingTTL: 40n }]);
});

void test('a lease that does not outlive the interval is never scheduled', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.start(1n, 0, 10n); // exactly the interval: etcd schedules only when remaining > interval
  s.start(2n, 0, 5n);
  assert.equal(s.scheduled, 0);
  assert.deepEqual(s.take(1_000_000, 10, views({ 1: { expiryMs: 10_000, ttl: 10n }, 2: { expiryMs: 5_000, ttl: 5n } })), []);
});

void test('after a checkpoint that leaves less than an interval, the lease is not rescheduled', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.start(1n, 0, 15n);
  const view = views({ 1: { expiryMs: 15_000, ttl: 15n } });
  assert.deepEqual(s.take(10_000, 10, view), [{ ID: 1n, remainingTTL: 5n }]);
  assert.equal(s.scheduled, 0);
});

void test('a lease still at its full TTL (just renewed) is skipped but rescheduled', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.start(1n, 0, 60n);
  assert.deepEqual(s.take(10_000, 10, views({ 1: { expiryMs: 70_000, ttl: 60n } })), []);
  assert.equal(s.scheduled, 1);
  assert.deepEqual(s.take(20_000, 10, views({ 1: { expiryMs: 70_000, ttl: 60n } })), [{ ID: 1n, remainingTTL: 50n }]);
});

void test('unknown and expired leases are dropped', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.start(1n, 0, 60n);
  s.start(2n, 0, 60n);
  assert.deepEqual(s.take(10_000, 10, views({ 2: { expiryMs: 10_000, ttl: 60n } })), []);
  assert.equal(s.scheduled, 0);
});

void test('due leases come out earliest first, at most max per call; the rest stay due', () => {
  const s = new CheckpointSchedule(INTERVAL);
  const m: Record<string, CheckpointView> = {};
  for (let i = 1; i <= 5; i++) {
    s.start(BigInt(i), 100 * (6 - i), 60n); // lease 5 started first
    m[i] = { expiryMs: 100 * (6 - i) + 60_000, ttl: 60n };
  }
  const first = s.take(20_000, 3, views(m));
  assert.deepEqual(first.map((c) => c.ID), [5n, 4n, 3n]);
  assert.deepEqual(s.take(20_000, 3, views(m)).map((c) => c.ID), [2n, 1n]);
  assert.deepEqual(s.take(20_000, 3, views(m)), []);
});

void test('a keep-alive reset goes out first with remaining 0, once, and not twice in one call', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.start(1n, 0, 60n);
  s.start(2n, 0, 60n);
  s.reset(2n);
  s.reset(3n); // unknown by the time of take: dropped
  const m = views({ 1: { expiryMs: 60_000, ttl: 60n }, 2: { expiryMs: 65_000, ttl: 60n } });
  assert.deepEqual(s.take(1_000, 10, m), [{ ID: 2n, remainingTTL: 0n }]);
  assert.deepEqual(s.take(1_000, 10, m), []);
  s.reset(2n);
  assert.deepEqual(s.take(10_000, 10, m), [{ ID: 2n, remainingTTL: 0n }, { ID: 1n, remainingTTL: 50n }]);
});

void test('renewed schedules a lease that had no checkpoint pending, and leaves a pending one alone', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.renewed(1n, 5_000, 60n);
  assert.equal(s.scheduled, 1);
  s.start(2n, 0, 60n);
  s.renewed(2n, 9_000, 60n);
  const m = views({ 1: { expiryMs: 65_000, ttl: 60n }, 2: { expiryMs: 69_000, ttl: 60n } });
  assert.deepEqual(s.take(10_000, 10, m), [{ ID: 2n, remainingTTL: 59n }]);
  assert.deepEqual(s.take(15_000, 10, m), [{ ID: 1n, remainingTTL: 50n }]);
});

void test('remove and clear forget leases and resets', () => {
  const s = new CheckpointSchedule(INTERVAL);
  s.start(1n, 0, 60n);
  s.start(2n, 0, 60n);
  s.reset(1n);
  s.remove(1n);
  assert.equal(s.scheduled, 1);
  const m = views({ 1: { expiryMs: 60_000, ttl: 60n }, 2: { expiryMs: 60_000, ttl: 60n } });
  assert.deepEqual(s.take(10_000, 10, m), [{ ID: 2n, remainingTTL: 50n }]);
  s.reset(2n);
  s.clear();
  assert.equal(s.scheduled, 0);
  assert.deepEqual(s.take(1_000_000, 10, m), []);
});

void test('the interval must be positive', () => {
  assert.throws(() => new CheckpointSchedule(0), RangeError);
});

void test('batches hold at most 1000 checkpoints and keep the order', () => {
  const cps: LeaseCheckpoint[] = Array.from({ length: 2500 }, (_, i) => ({ ID: BigInt(i + 1), remainingTTL: 7n }));
  const batches = checkpointBatches(cps);
  assert.equal(MAX_CHECKPOINTS_PER_PROPOSAL, 1000);
  assert.deepEqual(batches.map((b) => b.length), [1000, 1000, 500]);
  assert.deepEqual(batches.flat(), cps);
  assert.deepEqual(checkpointBatches([]), []);
  assert.deepEqual(checkpointBatches(cps.slice(0, 3), 2).map((b) => b.map((c) => c.ID)), [[1n, 2n], [3n]]);
});
