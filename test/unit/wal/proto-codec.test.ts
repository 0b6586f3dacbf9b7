/** The hand-written Entry/HardState encoders produce exactly the generated protobuf bytes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import * as wire from '../../../proto/gen/kvstore/raft.js';
import type { Entry, HardState } from '../../../server/raft/log-types.js';
import { readEntry } from '../../../server/wal/entry-reader.js';
import { ProtoReader } from '../../../server/wal/proto-reader.js';
import { entryBytes, hardStateBytes, indexFromWire, writeEntry, writeHardState } from '../../../server/wal/proto-codec.js';

/** Terms and indexes: numbers up to 2^53 - 1. */
const idx = fc.oneof(fc.constantFrom(0, 1, 127, 128, 2 ** 32 - 1, 2 ** 32, 2 ** 53 - 1), fc.maxSafeNat());
const u64 = fc.oneof(fc.constantFrom(0n, 1n, 2n ** 53n, 2n ** 64n - 1n), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }));

const toWire = (e: Entry): wire.Entry => ({ term: BigInt(e.term), index: BigInt(e.index), type: e.type, data: e.data });

void test('entry encoding matches Entry.encode', () => {
  fc.assert(
    fc.property(idx, idx, fc.constantFrom(0, 1, -1), fc.uint8Array({ maxLength: 300 }), (term, index, type, data) => {
      const e: Entry = { term, index, type, data: Buffer.from(data) };
      const want = Buffer.from(wire.Entry.encode(toWire(e)).finish());
      const buf = Buffer.alloc(entryBytes(e) + 4, 0xee);
      const end = writeEntry(buf, 2, e);
      assert.equal(end - 2, want.length);
      assert.deepEqual(buf.subarray(2, end), want);
      // Read back by the project's reader (payload as a view), as the generated decoder reads it.
      assert.deepEqual(readEntry(new ProtoReader(buf, 2, end)), e);
      const generated = wire.Entry.decode(buf.subarray(2, end));
      assert.deepEqual([BigInt(e.term), BigInt(e.index), e.type], [generated.term, generated.index, generated.type]);
    }),
  );
});

void test('hard state encoding matches HardState.encode', () => {
  fc.assert(
    fc.property(idx, u64, idx, (term, vote, commit) => {
      const h: HardState = { term, vote, commit };
      const want = Buffer.from(wire.HardState.encode({ term: BigInt(term), vote, commit: BigInt(commit) }).finish());
      const buf = Buffer.alloc(hardStateBytes(h));
      assert.equal(writeHardState(buf, 0, h), want.length);
      assert.deepEqual(buf, want);
    }),
  );
});

void test('values outside their range are refused', () => {
  assert.throws(() => entryBytes({ term: -1, index: 1, type: 0, data: Buffer.alloc(0) }), RangeError);
  assert.throws(() => entryBytes({ term: 1, index: 2 ** 53, type: 0, data: Buffer.alloc(0) }), RangeError);
  assert.throws(() => entryBytes({ term: 1.5, index: 1, type: 0, data: Buffer.alloc(0) }), RangeError);
  assert.throws(() => hardStateBytes({ term: 1, vote: 2n ** 64n, commit: 0 }), RangeError);
  assert.throws(() => indexFromWire(2n ** 53n, 'index'), RangeError);
  assert.equal(indexFromWire(2n ** 53n - 1n, 'index'), Number.MAX_SAFE_INTEGER);
});

void test('terms and indexes above 32 bits encode as the generated encoder does', () => {
  const values = [0xffffffff, 0x100000000, 0x7fffffffff, 0x800000000, 2 ** 35 - 1, 2 ** 35, 2 ** 49 + 12345, 2 ** 53 - 1];
  for (const v of values) {
    const e = { term: v, index: v - 1, type: 0, data: Buffer.from('d') };
    const buf = Buffer.alloc(entryBytes(e));
    assert.equal(writeEntry(buf, 0, e), buf.length, `size of ${v}`);
    assert.deepEqual(buf, Buffer.from(wire.Entry.encode(toWire(e)).finish()), `bytes of ${v}`);
  }
});
