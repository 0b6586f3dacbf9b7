/** compareBytes orders like Buffer.compare (sign only), for short keys and long shared prefixes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareBytes, newBufferMap } from '../../../server/storage/sorted-map.js';

const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc.tuple(fc.constantFrom(16, 17, 30), fc.uint8Array({ maxLength: 4 })).map(([n, tail]) => Uint8Array.from([...Array<number>(n).fill(0xab), ...tail])),
);

void describe('compareBytes', () => {
  void it('has the sign of Buffer.compare', () => {
    fc.assert(
      fc.property(bytes, bytes, (x, y) => {
        const a = Buffer.from(x);
        const c = Buffer.from(y);
        assert.equal(Math.sign(compareBytes(a, c)), Buffer.compare(a, c));
      }),
      { numRuns: 2000 },
    );
  });

  void it('orders a buffer map by unsigned bytes', () => {
    const m = newBufferMap<number>();
    for (const k of [[0xff], [0x80], [0x7f], [0x00], []]) m.set(Buffer.from(k), k.length);
    assert.deepEqual([...m.keys()].map((k) => k.toString('hex')), ['', '00', '7f', '80', 'ff']);
  });
});
