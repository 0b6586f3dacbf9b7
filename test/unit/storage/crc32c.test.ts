/** CRC-32C: the check value, and eight bytes per step agreeing with the bytewise definition for any split. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Crc32c } from '../../../server/storage/crc32c.js';

/** The definition, one bit at a time. */
function reference(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

void describe('Crc32c', () => {
  void it('gives the check value of "123456789" and 0 for nothing', () => {
    assert.equal(new Crc32c().update(Buffer.from('123456789')).digest(), 0xe3069283);
    assert.equal(new Crc32c().digest(), 0);
  });

  void it('agrees with the bitwise definition however the bytes are split, ranges included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.array(fc.nat({ max: 100 }), { maxLength: 4 }), (bytes, cuts) => {
        const at = [0, ...cuts.map((c) => Math.min(c, bytes.length)).sort((a, b) => a - b), bytes.length];
        const crc = new Crc32c();
        for (let i = 1; i < at.length; i++) crc.update(bytes, at[i - 1], at[i]);
        assert.equal(crc.digest(), reference(bytes));
        assert.equal(new Crc32c().update(bytes).digest(), reference(bytes));
      }),
    );
  });
});
