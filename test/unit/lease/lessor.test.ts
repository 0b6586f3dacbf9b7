// Lessor table tests: grant/revoke/attach/renew/timeToLive/expired/promote/demote/checkpoint/restore.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLessor, type Lessor } from '../../../server/lease/lessor.js';
import { MAX_LEASE_TTL_SECONDS, minLeaseTtlSeconds } from '../../../server/lease/ttl.js';

const k = (s: string): Buffer => Buffer.from(s);
const leader = (now = 0): Lessor => {
  const l = createLessor({ minTtlSeconds: 2n });
  l.promote(now);
  return l;
};

void test('min TTL is ceil(1.5 × election timeout) seconds', () => {
  assert.equal(minLeaseTtlSeconds(10, 100), 2n);
  assert.equal(minLeaseTtlSeconds(10, 1000), 15n);
  assert.equal(minLeaseTtlSeconds(5, 100), 1n); // floor(7.5)=7 ticks × 100 ms → 1 s
  assert.equal(minLeaseTtlSeconds(20, 250), 8n); // 30 × 250 ms = 7.5 s → 8 s
});

void test('grant: raises TTL to the minimum, refuses 0 ids, duplicates and huge TTLs', () => {
  const l = leader();
  assert.deepEqual(l.grant(1n, 1n, 0), { ok: true, value: { id: 1n, ttl: 2n } });
  assert.deepEqual(l.grant(2n, -5n, 0), { ok: true, value: { id: 2n, ttl: 2n } });
  assert.deepEqual(l.grant(3n, 60n, 0), { ok: true, value: { id: 3n, ttl: 60n } });
  assert.deepEqual(l.grant(1n, 60n, 0), { ok: false, error: { kind: 'LeaseExists' } });
  assert.deepEqual(l.grant(0n, 60n, 0), { ok: false, error: { kind: 'LeaseNotFound' } });
  assert.deepEqual(l.grant(4n, MAX_LEASE_TTL_SECONDS + 1n, 0), { ok: false, error: { kind: 'LeaseTTLTooLarge' } });
  assert.equal(l.grant(5n, MAX_LEASE_TTL_SECONDS, 0).ok, true);
  assert.deepEqual(l.leases(), [1n, 2n, 3n, 5n]);
});

void test('revoke returns attached keys in byte order and forgets the lease', () => {
  const l = leader();
  l.grant(7n, 10n, 0);
  for (const key of ['b', 'a', 'c']) assert.equal(l.attach(7n, k(key)).ok, true);
  const r = l.revoke(7n);
  assert.ok(r.ok);
  assert.deepEqual(r.value.keys, [k('a'), k('b'), k('c')]);
  assert.equal(l.has(7n), false);
  assert.equal(l.leaseOf(k('a')), undefined);
  assert.deepEqual(l.revoke(7n), { ok: false, error: { kind: 'LeaseNotFound' } });
  assert.deepEqual(l.attach(7n, k('a')), { ok: false, error: { kind: 'LeaseNotFound' } });
  assert.deepEqual(l.detach(7n, k('a')), { ok: false, error: { kind: 'LeaseNotFound' } });
});

void test('a key belongs to at most one lease; re-attaching moves it', () => {
  const l = leader();
  l.grant(1n, 10n, 0);
  l.grant(2n, 10n, 0);
  l.attach(1n, k('x'));
  l.attach(2n, k('x'));
  assert.equal(l.leaseOf(k('x')), 2n);
  assert.deepEqual(l.timeToLive(1n, 0)?.keys, []);
  assert.deepEqual(l.timeToLive(2n, 0)?.keys, [k('x')]);
  l.detach(1n, k('x')); // not attached there: no-op
  assert.equal(l.leaseOf(k('x')), 2n);
  l.detach(2n, k('x'));
  assert.equal(l.leaseOf(k('x')), undefined);
});

void test('binary keys are kept exactly', () => {
  const l = leader();
  l.grant(1n, 10n, 0);
  const key = Buffer.from([0x00, 0xff, 0x80, 0x7f]);
  l.attach(1n, key);
  assert.deepEqual(l.revoke(1n), { ok: true, value: { keys: [key] } });
});

void test('timeToLive: remaining truncated to whole seconds; unknown → undefined', () => {
  const l = leader();
  l.grant(1n, 10n, 1000);
  assert.deepEqual(l.timeToLive(1n, 1000), { ttl: 10n, grantedTTL: 10n, keys: [] });
  assert.equal(l.timeToLive(1n, 1001)?.ttl, 9n);
  assert.equal(l.timeToLive(1n, 10_999)?.ttl, 0n);
  assert.equal(l.timeToLive(1n, 11_000)?.ttl, 0n);
  assert.equal(l.timeToLive(1n, 50_000)?.ttl, 0n);
  assert.equal(l.timeToLive(99n, 0), undefined);
});

void test('renew restarts the full TTL; unknown or due leases renew to 0', () => {
  const l = leader();
  l.grant(1n, 10n, 0);
  assert.equal(l.renew(1n, 9_000), 10n);
  assert.equal(l.timeToLive(1n, 9_000)?.ttl, 10n);
  assert.deepEqual(l.expired(18_999, 10), []);
  assert.equal(l.renew(1n, 19_000), 0n); // due at 19 000
  assert.equal(l.renew(42n, 0), 0n);
});

void test('expired: due leases earliest first, bounded by max, handed out again only after the retry interval', () => {
  const l = createLessor({ minTtlSeconds: 1n, expiredRetryMs: 500 });
  l.promote(0);
  l.grant(3n, 3n, 0);
  l.grant(1n, 1n, 0);
  l.grant(2n, 2n, 0);
  assert.deepEqual(l.expired(999, 10), []);
  assert.deepEqual(l.expired(2_000, 1), [1n]);
  assert.deepEqual(l.expired(2_000, 10), [2n]);
  assert.deepEqual(l.expired(2_400, 10), []);
  assert.deepEqual(l.expired(2_500, 10), [1n, 2n]); // not revoked yet: retried
  l.revoke(1n);
  l.revoke(2n);
  assert.deepEqual(l.expired(3_000, 10), [3n]);
});

void test('demoted: nothing expires, renew changes nothing; promote restarts every lease from its full TTL', () => {
  const l = createLessor({ minTtlSeconds: 2n });
  l.grant(1n, 5n, 0);
  assert.equal(l.primary, false);
  assert.deepEqual(l.expired(1e12, 10), []);
  assert.equal(l.renew(1n, 0), 5n);
  assert.equal(l.timeToLive(1n, 1e9)?.ttl, 5n);
  l.promote(100_000);
  assert.equal(l.primary, true);
  assert.equal(l.timeToLive(1n, 100_000)?.ttl, 5n);
  assert.deepEqual(l.expired(104_999, 10), []);
  assert.deepEqual(l.expired(105_000, 10), [1n]);
  l.demote();
  assert.deepEqual(l.expired(1e12, 10), []);
  l.promote(200_000);
  assert.deepEqual(l.expired(204_999, 10), []);
});

void test('checkpoint: promote resumes from the checkpointed remaining TTL; renew clears it', () => {
  const l = createLessor({ minTtlSeconds: 2n });
  l.grant(1n, 60n, 0);
  l.grant(2n, 60n, 0);
  assert.equal(l.checkpoint(1n, 7n).ok, true);
  assert.equal(l.checkpoint(2n, 7n).ok, true);
  assert.deepEqual(l.checkpoint(3n, 7n), { ok: false, error: { kind: 'LeaseNotFound' } });
  assert.deepEqual(l.record(1n), { id: 1n, ttl: 60n, remainingTtl: 7n });
  l.promote(0);
  assert.equal(l.timeToLive(1n, 0)?.ttl, 7n);
  assert.equal(l.renew(2n, 0), 60n);
  assert.deepEqual(l.record(2n), { id: 2n, ttl: 60n, remainingTtl: 0n });
  assert.deepEqual(l.expired(7_000, 10), [1n]);
});

void test('restore replaces every lease, raises TTLs to the minimum and leaves the lessor demoted', () => {
  const l = leader();
  l.grant(9n, 10n, 0);
  l.attach(9n, k('old'));
  l.restore([
    { id: 1n, ttl: 1n, remainingTtl: 0n },
    { id: 2n, ttl: 30n, remainingTtl: 12n },
    { id: 0n, ttl: 30n, remainingTtl: 0n },
  ]);
  assert.equal(l.primary, false);
  assert.deepEqual(l.leases(), [1n, 2n]);
  assert.equal(l.leaseOf(k('old')), undefined);
  assert.deepEqual(l.record(1n), { id: 1n, ttl: 2n, remainingTtl: 0n });
  l.promote(0);
  assert.deepEqual(l.expired(11_999, 10), [1n]);
  assert.deepEqual(l.expired(12_000, 10), [2n]);
});
