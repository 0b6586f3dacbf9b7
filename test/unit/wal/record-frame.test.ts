/** Framing: sealed frames read back; each kind of damage is told apart. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 } from 'node:zlib';

import { endOfNonZero, frameBytes, HEADER_BYTES, isAllZero, readFrame, sealFrame } from '../../../server/wal/record-frame.js';
import { RecordType } from '../../../server/wal/record-type.js';

function frame(data: Buffer, seed: number): { buf: Buffer; crc: number } {
  const buf = Buffer.alloc(frameBytes(data.length));
  data.copy(buf, HEADER_BYTES);
  const crc = sealFrame(buf, 0, RecordType.Entry, data.length, seed);
  return { buf, crc };
}

void test('frames are 8-aligned and chain their CRC from the previous one', () => {
  for (let n = 0; n < 20; n++) assert.equal(frameBytes(n) % 8, 0);
  const data = Buffer.from('hello');
  const { buf, crc } = frame(data, 1234);
  assert.equal(crc, crc32(data, 1234));
  const r = readFrame(buf, 0, buf.length, 1234);
  assert.equal(r.kind, 'ok');
  if (r.kind === 'ok') {
    assert.deepEqual(r.data, data);
    assert.equal(r.next, buf.length);
  }
  assert.equal(readFrame(buf, 0, buf.length, 1235).kind, 'badCrc');
});

void test('damage kinds', () => {
  const { buf } = frame(Buffer.from('some data here'), 0);
  assert.equal(readFrame(buf, buf.length, buf.length, 0).kind, 'end');
  assert.equal(readFrame(Buffer.alloc(32), 0, 32, 0).kind, 'zero');
  assert.equal(readFrame(buf, 0, 10, 0).kind, 'short');
  assert.equal(readFrame(buf, 0, buf.length - 1, 0).kind, 'incomplete');
  const badLength = Buffer.from(buf);
  badLength[0] = 200;
  assert.equal(readFrame(badLength, 0, badLength.length, 0).kind, 'badHeader');
  const badData = Buffer.from(buf);
  badData[HEADER_BYTES + 3] ^= 1;
  assert.equal(readFrame(badData, 0, badData.length, 0).kind, 'badCrc');
});

void test('zero helpers', () => {
  const b = Buffer.alloc(40);
  assert.equal(isAllZero(b, 0, 40), true);
  b[17] = 1;
  assert.equal(isAllZero(b, 0, 40), false);
  assert.equal(isAllZero(b, 18, 40), true);
  assert.equal(isAllZero(b, 0, 17), true);
  assert.equal(endOfNonZero(b, 0, 40), 18);
  assert.equal(endOfNonZero(b, 18, 40), 18);
  const negativeZero = Buffer.alloc(8);
  negativeZero.writeDoubleLE(-0);
  assert.equal(isAllZero(negativeZero, 0, 8), false);
});
