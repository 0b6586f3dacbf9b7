/** HPACK integers (RFC 7541 §5.1, examples C.1): round trips, the 2^31 - 1 cap, truncation. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IntegerError, MAX_INTEGER, readInteger, writeInteger } from '../../../../server/transport/hpack/integer.js';

function read(bytes: number[], prefixBits: number): [number, number] {
  const c = { buf: Buffer.from(bytes), pos: 0, end: bytes.length };
  const v = readInteger(c, prefixBits);
  return [v, c.pos];
}

void test('C.1: 10 and 1337 with a 5-bit prefix, 42 on an octet boundary', () => {
  const out = Buffer.alloc(8);
  assert.deepEqual([...out.subarray(0, writeInteger(out, 0, 10, 5, 0xe0))], [0xea]);
  assert.deepEqual([...out.subarray(0, writeInteger(out, 0, 1337, 5, 0))], [0x1f, 0x9a, 0x0a]);
  assert.deepEqual([...out.subarray(0, writeInteger(out, 0, 42, 8, 0))], [0x2a]);
  assert.deepEqual(read([0xea], 5), [10, 1]);
  assert.deepEqual(read([0x1f, 0x9a, 0x0a], 5), [1337, 3]);
  assert.deepEqual(read([0x2a], 8), [42, 1]);
});

void test('any 0 … 2^31 - 1 with any prefix round-trips', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: MAX_INTEGER }), fc.integer({ min: 1, max: 8 }), (value, prefixBits) => {
      const out = Buffer.alloc(8);
      const end = writeInteger(out, 0, value, prefixBits, 0);
      assert.deepEqual(read([...out.subarray(0, end)], prefixBits), [value, end]);
    }),
  );
});

void test('over 2^31 - 1, more than five continuation octets, or past the end: refused', () => {
  assert.deepEqual(read([0x7f, 0x80, 0xff, 0xff, 0xff, 0x07], 7), [MAX_INTEGER, 6]); // 127 + (2^31 - 1 - 127)
  assert.equal(read([0x7f, 0x81, 0xff, 0xff, 0xff, 0x07], 7)[0], IntegerError.TooLarge);
  assert.equal(read([0x1f, 0xff, 0xff, 0xff, 0xff, 0x0f], 5)[0], IntegerError.TooLarge);
  assert.deepEqual(read([0x1f, 0x80, 0x80, 0x80, 0x80, 0x00], 5), [31, 6]); // zero padding, five octets
  assert.equal(read([0x1f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 5)[0], IntegerError.TooLarge);
  assert.equal(read([0x1f, 0x80], 5)[0], IntegerError.Truncated);
  assert.equal(read([0x1f], 5)[0], IntegerError.Truncated);
  assert.equal(read([], 5)[0], IntegerError.Truncated);
});
