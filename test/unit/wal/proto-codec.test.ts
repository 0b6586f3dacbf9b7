/** The hand-written Entry/HardState encoders produce exactly the generated protobuf bytes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { Entry, HardState } from '../../../proto/gen/kvstore/raft.js';
import { entryBytes, hardStateBytes, writeEntry, writeHardState } from '../../../server/wal/proto-codec.js';

const u64 = fc.oneof(fc.constantFrom(0n, 1n, 127n, 128n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n, 2n ** 64n - 1n), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }));

void test('entry encoding matches Entry.encode', () => {
  fc.assert(
    fc.property(u64, u64, fc.constantFrom(0, 1, -1), fc.uint8Array({ maxLength: 300 }), (term, index, type, data) => {
      const e: Entry = { term, index, type, data: Buffer.from(data) };
      const want = Buffer.from(Entry.encode(e).finish());
      const buf = Buffer.alloc(entryBytes(e) + 4, 0xee);
      const end = writeEntry(buf, 2, e);
      assert.equal(end - 2, want.length);
      assert.deepEqual(buf.subarray(2, end), want);
      assert.deepEqual(Entry.decode(buf.subarray(2, end)), e);
    }),
  );
});

void test('hard state encoding matches HardState.encode', () => {
  fc.assert(
    fc.property(u64, u64, u64, (term, vote, commit) => {
      const h: HardState = { term, vote, commit };
      const want = Buffer.from(HardState.encode(h).finish());
      const buf = Buffer.alloc(hardStateBytes(h));
      assert.equal(writeHardState(buf, 0, h), want.length);
      assert.deepEqual(buf, want);
    }),
  );
});

void test('values outside uint64 are refused', () => {
  assert.throws(() => entryBytes({ term: -1n, index: 1n, type: 0, data: Buffer.alloc(0) }), RangeError);
  assert.throws(() => hardStateBytes({ term: 1n, vote: 2n ** 64n, commit: 0n }), RangeError);
});

void test('uint64 fields above 32 bits encode as the generated encoder does', () => {
  const values = [0xffffffffn, 0x100000000n, 0x7fffffffffn, 0x800000000n, 0xfedcba9876543210n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 35n - 1n, 2n ** 35n, 2n ** 49n + 12345n];
  for (const v of values) {
    const e = { term: v, index: v - 1n, type: 0, data: Buffer.from('d') };
    const buf = Buffer.alloc(entryBytes(e));
    assert.equal(writeEntry(buf, 0, e), buf.length, `size of ${v}`);
    assert.deepEqual(buf, Buffer.from(Entry.encode(e).finish()), `bytes of ${v}`);
  }
});
