// Lessor with checkpointing on: what the leader proposes, and how applied checkpoints
// (through the real apply step) make the next leader resume remaining TTLs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AlarmSet } from '../../../server/apply/alarms.js';
import { Applier } from '../../../server/apply/applier.js';
import { leasePort, restoreLeases } from '../../../server/bootstrap/lease-port.js';
import { ClusterVersionState } from '../../../server/clusterversion/cluster-version-state.js';
import type { LeaseCheckpoint } from '../../../server/lease/checkpoint-schedule.js';
import { createLessor, type Lessor } from '../../../server/lease/lessor.js';
import { Membership } from '../../../server/membership/membership.js';
import { openMvccStore } from '../../../server/mvcc/store.js';
import { Bucket, type Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';

const INTERVAL = 10_000;
const checkpointing = (): Lessor => createLessor({ minTtlSeconds: 2n, checkpointIntervalMs: INTERVAL });

void test('off: no checkpoints are ever due, and a new leader restarts leases from the full TTL', () => {
  const l = createLessor({ minTtlSeconds: 2n });
  l.promote(0);
  l.grant(1n, 60n, 0);
  assert.deepEqual(l.dueCheckpoints(1e9, 100), []);
  l.demote();
  l.promote(40_000);
  assert.equal(l.timeToLive(1n, 40_000)?.ttl, 60n);
});

void test('on: only the primary hands out checkpoints, for leases outliving the interval', () => {
  const l = checkpointing();
  l.grant(1n, 60n, 0);
  assert.deepEqual(l.dueCheckpoints(1e9, 100), []); // demoted
  l.promote(0);
  l.grant(2n, 5n, 0); // shorter than the interval
  l.grant(3n, 120n, 1_000);
  assert.deepEqual(l.dueCheckpoints(9_999, 100), []);
  assert.deepEqual(l.dueCheckpoints(11_000, 100), [
    { ID: 1n, remainingTTL: 49n },
    { ID: 3n, remainingTTL: 110n },
  ]);
  l.demote();
  assert.deepEqual(l.dueCheckpoints(1e9, 100), []);
});

void test('on: revoke forgets the schedule; promote schedules from the checkpointed remaining TTL', () => {
  const l = checkpointing();
  l.grant(1n, 60n, 0);
  l.grant(2n, 60n, 0);
  l.checkpoint(1n, 15n);
  l.checkpoint(2n, 8n); // resumes below the interval: never checkpointed again
  l.promote(100_000);
  assert.equal(l.revoke(1n).ok, true);
  assert.deepEqual(l.dueCheckpoints(200_000, 100), []);
  assert.equal(l.timeToLive(2n, 100_000)?.ttl, 8n);
});

void test('on: a keep-alive of a checkpointed lease queues a reset to 0', () => {
  const l = checkpointing();
  l.grant(1n, 60n, 0);
  l.grant(2n, 60n, 0);
  l.promote(0);
  const due = l.dueCheckpoints(20_000, 100);
  assert.deepEqual(due, [{ ID: 1n, remainingTTL: 40n }, { ID: 2n, remainingTTL: 40n }]);
  for (const cp of due) l.checkpoint(cp.ID, cp.remainingTTL); // applied on every member, this one too
  assert.equal(l.renew(1n, 21_000), 60n);
  assert.equal(l.renew(1n, 21_500), 60n); // already cleared: no second reset
  assert.deepEqual(l.dueCheckpoints(21_500, 100), [{ ID: 1n, remainingTTL: 0n }]);
  assert.deepEqual(l.record(1n), { id: 1n, ttl: 60n, remainingTtl: 0n });
  assert.deepEqual(l.record(2n), { id: 2n, ttl: 60n, remainingTtl: 40n });
});

/** One member's apply side: a memory backend, the MVCC store, the lessor and the applier. */
async function member(backend: Backend, lessor: Lessor): Promise<{ apply(cps: LeaseCheckpoint[]): Promise<void>; grant(id: bigint, ttl: bigint): Promise<void> }> {
  const store = await openMvccStore(backend);
  const restored = await restoreLeases(lessor, backend, store);
  assert.ok(restored.ok);
  const applier = new Applier({
    store,
    leases: leasePort(lessor),
    alarms: AlarmSet.restore([]),
    membership: Membership.restore([], []),
    clusterVersion: await ClusterVersionState.load(backend),
    onEvents: () => undefined,
    onCompacted: () => undefined,
  });
  const flush = async (): Promise<void> => backend.write(applier.takeBackendOps(), { sync: true });
  return {
    async grant(ID, TTL) {
      const res = await applier.apply({ header: undefined, request: { $case: 'leaseGrant', value: { ID, TTL } } }, 0);
      assert.ok(res.ok);
      await flush();
    },
    async apply(checkpoints) {
      const res = await applier.apply({ header: undefined, request: { $case: 'leaseCheckpoint', value: { checkpoints } } }, 0);
      assert.ok(res.ok);
      assert.ok((res.value.response as { header?: unknown }).header !== undefined);
      await flush();
    },
  };
}

void test('applied checkpoints: a follower promoted later resumes each lease from its remaining TTL', async () => {
  const leaderLessor = checkpointing();
  const followerLessor = checkpointing();
  const leader = await member(createMemoryBackend(), leaderLessor);
  const follower = await member(createMemoryBackend(), followerLessor);
  leaderLessor.promote(0);
  for (const m of [leader, follower]) {
    await m.grant(1n, 100n);
    await m.grant(2n, 100n);
  }
  const due = leaderLessor.dueCheckpoints(30_000, 1000);
  assert.deepEqual(due, [{ ID: 1n, remainingTTL: 70n }, { ID: 2n, remainingTTL: 70n }]);
  const withUnknown = [...due, { ID: 99n, remainingTTL: 5n }]; // a lease revoked meanwhile: skipped
  for (const m of [leader, follower]) await m.apply(withUnknown);
  assert.equal(followerLessor.timeToLive(1n, 30_000)?.ttl, 70n); // a demoted member reports the checkpoint

  leaderLessor.demote();
  followerLessor.promote(31_000);
  assert.equal(followerLessor.timeToLive(1n, 31_000)?.ttl, 70n);
  assert.equal(followerLessor.timeToLive(2n, 41_000)?.ttl, 60n);
  assert.deepEqual(followerLessor.expired(100_999, 10), []);
  assert.deepEqual(followerLessor.expired(101_000, 10), [1n, 2n]);
});

void test('applied checkpoints are persisted: a restarted member resumes from them', async () => {
  const backend = createMemoryBackend();
  const lessor = checkpointing();
  const m = await member(backend, lessor);
  await m.grant(7n, 100n);
  await m.apply([{ ID: 7n, remainingTTL: 42n }]);
  const stored = [];
  for await (const [, v] of backend.iterate(Bucket.Lease)) stored.push(v);
  assert.equal(stored.length, 1);

  const again = checkpointing();
  await member(backend, again);
  again.promote(0);
  assert.equal(again.timeToLive(7n, 0)?.ttl, 42n);

  // a reset (remaining 0) is applied and persisted too: the lease restarts from its full TTL
  await m.apply([{ ID: 7n, remainingTTL: 0n }]);
  const third = checkpointing();
  await member(backend, third);
  third.promote(0);
  assert.equal(third.timeToLive(7n, 0)?.ttl, 100n);
});

void test('a checkpoint naming an unknown lease is skipped (the response still has a header)', async () => {
  const backend = createMemoryBackend();
  const lessor = createLessor({ minTtlSeconds: 2n });
  const m = await member(backend, lessor);
  await m.grant(1n, 50n);
  await m.apply([{ ID: 2n, remainingTTL: 5n }]);
  assert.deepEqual(lessor.record(1n), { id: 1n, ttl: 50n, remainingTtl: 0n });
  assert.equal(lessor.has(2n), false);
});
