// Property tests: TTL and expiry laws of the lessor under a virtual clock, checked against a
// tiny model (id → granted TTL, expiry) after every step of a random command sequence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createLessor } from '../../../server/lease/lessor.js';

type Cmd =
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'grant'; readonly id: bigint; readonly ttl: bigint }
  | { readonly op: 'renew'; readonly id: bigint }
  | { readonly op: 'revoke'; readonly id: bigint }
  | { readonly op: 'expire' }
  | { readonly op: 'promote' }
  | { readonly op: 'demote' };

const id = fc.bigInt({ min: 1n, max: 6n });
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 4000 }) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('grant' as const), id, ttl: fc.bigInt({ min: -2n, max: 12n }) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('renew' as const), id }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('revoke' as const), id }), weight: 1 },
  { arbitrary: fc.constant({ op: 'expire' as const }), weight: 2 },
  { arbitrary: fc.constant({ op: 'promote' as const }), weight: 1 },
  { arbitrary: fc.constant({ op: 'demote' as const }), weight: 1 },
);

const MIN_TTL = 2n;

void test('TTL/expiry laws hold for every command sequence', () => {
  fc.assert(
    fc.property(fc.array(cmd, { maxLength: 80 }), (cmds) => {
      const lessor = createLessor({ minTtlSeconds: MIN_TTL });
      const model = new Map<bigint, { ttl: bigint; expiryMs: number }>();
      let primary = false;
      let now = 0;
      for (const c of cmds) {
        switch (c.op) {
          case 'advance':
            now += c.ms;
            break;
          case 'grant': {
            const r = lessor.grant(c.id, c.ttl, now);
            assert.equal(r.ok, !model.has(c.id));
            if (r.ok) {
              // Law: the effective TTL is the request raised to the minimum.
              assert.equal(r.value.ttl, c.ttl < MIN_TTL ? MIN_TTL : c.ttl);
              model.set(c.id, { ttl: r.value.ttl, expiryMs: primary ? now + Number(r.value.ttl) * 1000 : Infinity });
            }
            break;
          }
          case 'renew': {
            const m = model.get(c.id);
            const ttl = lessor.renew(c.id, now);
            if (m === undefined) assert.equal(ttl, 0n);
            else if (!primary) assert.equal(ttl, m.ttl);
            else if (m.expiryMs <= now) assert.equal(ttl, 0n);
            else {
              assert.equal(ttl, m.ttl);
              m.expiryMs = now + Number(m.ttl) * 1000;
            }
            break;
          }
          case 'revoke':
            assert.equal(lessor.revoke(c.id).ok, model.delete(c.id));
            break;
          case 'expire': {
            // Law: exactly the leases whose expiry has passed are due (none when demoted).
            const due = lessor.expired(now, Number.MAX_SAFE_INTEGER);
            const expected = [...model]
              .filter(([, m]) => m.expiryMs <= now)
              .sort(([a, x], [b, y]) => x.expiryMs - y.expiryMs || (a < b ? -1 : 1))
              .map(([i]) => i);
            assert.deepEqual(due, expected);
            for (const i of due) {
              assert.equal(lessor.revoke(i).ok, true);
              model.delete(i);
            }
            break;
          }
          case 'promote':
            primary = true;
            lessor.promote(now);
            for (const m of model.values()) m.expiryMs = now + Number(m.ttl) * 1000;
            break;
          case 'demote':
            primary = false;
            lessor.demote();
            for (const m of model.values()) m.expiryMs = Infinity;
            break;
        }
        // Laws after every step: the same leases exist; remaining TTL is the truncated
        // time to expiry (full TTL when demoted) and never exceeds the granted TTL.
        assert.deepEqual(lessor.leases(), [...model.keys()].sort((a, b) => (a < b ? -1 : 1)));
        for (const [i, m] of model) {
          const t = lessor.timeToLive(i, now);
          assert.ok(t !== undefined);
          assert.equal(t.grantedTTL, m.ttl);
          const remaining: bigint = primary ? BigInt(Math.max(0, Math.floor((m.expiryMs - now) / 1000))) : m.ttl;
          assert.equal(t.ttl, remaining);
          assert.ok(t.ttl >= 0n && t.ttl <= t.grantedTTL);
        }
      }
    }),
    { numRuns: 300 },
  );
});

void test('a lease granted by the leader is never due before its TTL has elapsed, and is due right after', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e9 }), fc.bigInt({ min: 2n, max: 100_000n }), (t0, ttl) => {
      const lessor = createLessor({ minTtlSeconds: MIN_TTL });
      lessor.promote(0);
      lessor.grant(1n, ttl, t0);
      const expiry = t0 + Number(ttl) * 1000;
      assert.deepEqual(lessor.expired(expiry - 1, 10), []);
      assert.deepEqual(lessor.expired(expiry, 10), [1n]);
    }),
  );
});
