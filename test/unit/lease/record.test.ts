// Lease record/key encoding (FORMAT.md) and the lease id generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  decodeLeaseKey,
  decodeLeaseRecord,
  encodeLeaseKey,
  encodeLeaseRecord,
} from '../../../server/lease/record.js';
import { createLeaseIdGenerator } from '../../../server/lease/id-generator.js';

const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });

void test('worked examples from FORMAT.md', () => {
  assert.equal(encodeLeaseRecord({ id: 7n, ttl: 60n, remainingTtl: 42n }).toString('hex'), '0807103c182a');
  assert.equal(encodeLeaseRecord({ id: 7n, ttl: 60n, remainingTtl: 0n }).toString('hex'), '0807103c');
  assert.equal(encodeLeaseKey(0x123456789abcdef0n).toString('hex'), '123456789abcdef0');
});

void test('negative values use 10-byte two’s complement varints', () => {
  const b = encodeLeaseRecord({ id: -1n, ttl: 0n, remainingTtl: 0n });
  assert.equal(b.toString('hex'), '08ffffffffffffffffff01');
  assert.deepEqual(decodeLeaseRecord(b), { ok: true, value: { id: -1n, ttl: 0n, remainingTtl: 0n } });
});

void test('record round trip for any int64 fields', () => {
  fc.assert(
    fc.property(int64, int64, int64, (id, ttl, remainingTtl) => {
      assert.deepEqual(decodeLeaseRecord(encodeLeaseRecord({ id, ttl, remainingTtl })), {
        ok: true,
        value: { id, ttl, remainingTtl },
      });
    }),
  );
});

void test('key round trip; keys of non-negative ids sort by id', () => {
  fc.assert(
    fc.property(int64, (id) => {
      assert.deepEqual(decodeLeaseKey(encodeLeaseKey(id)), { ok: true, value: id });
    }),
  );
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }), fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }), (a, b) => {
      assert.equal(Math.sign(Buffer.compare(encodeLeaseKey(a), encodeLeaseKey(b))), a < b ? -1 : a > b ? 1 : 0);
    }),
  );
});

void test('unknown fields are skipped; malformed bytes are an Internal error, never a throw', () => {
  // field 4 (string "ab"), field 5 fixed32, field 6 fixed64, then ID 3
  const withUnknown = Buffer.from('22026162' + '2d01020304' + '310102030405060708' + '0803', 'hex');
  assert.deepEqual(decodeLeaseRecord(withUnknown), { ok: true, value: { id: 3n, ttl: 0n, remainingTtl: 0n } });
  for (const hex of ['08', '08ff', '0f', '2205', '2d0102', '0b']) {
    const r = decodeLeaseRecord(Buffer.from(hex, 'hex'));
    assert.equal(r.ok, false, hex);
    if (!r.ok) assert.equal(r.error.kind, 'Internal');
  }
  assert.equal(decodeLeaseKey(Buffer.alloc(7)).ok, false);
});

void test('id generator: member prefix in the top bits, positive, unique, never 0', () => {
  const next = createLeaseIdGenerator(0x1_abcdn, 1_700_000_000_123);
  const seen = new Set<bigint>();
  for (let i = 0; i < 5000; i++) {
    const id = next();
    assert.ok(id > 0n && id < 1n << 63n);
    assert.equal(id >> 48n, 0x2bcdn); // low 16 bits 0xabcd with bit 63 cleared
    seen.add(id);
  }
  assert.equal(seen.size, 5000);
  // The counter starts from the timestamp (low 40 bits) shifted past 8 counter bits.
  const first = createLeaseIdGenerator(1n, 1000)();
  assert.equal(first, (1n << 48n) | ((1000n << 8n) + 1n));
  // Member id 0 at time 0 still yields a non-zero id.
  assert.equal(createLeaseIdGenerator(0n, 0)(), 1n);
});
