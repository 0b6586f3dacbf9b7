/**
 * maxHeaderListBytes: a block whose decoded list (name + value + 32 per field) is larger
 * answers 'too-large' with the whole list's size, after being processed to the end, so the
 * context stays in step (its inserts are kept, the next block decodes); a block both too large
 * and malformed is 'malformed'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHeaderBlockDecoder, encodeFields } from '../../../../server/transport/header-block-codec.js';
import { hex } from './hpack-test-util.js';

void test('a list over the limit is too-large; the inserts past the limit are kept', () => {
  const d = createHeaderBlockDecoder({ maxHeaderListBytes: 100 });
  // a: b (34), then ten times indexed 62 (a: b again): 374 octets in all
  const block = Buffer.concat([hex('40 01 61 01 62'), Buffer.alloc(10, 0xbe), hex('40 01 63 01 64')]);
  assert.deepEqual(d.decode(block), { kind: 'too-large', listBytes: 12 * 34 });
  // c: d was inserted after the limit was passed: it is index 62 now, a: b index 63
  assert.deepEqual(d.decode(hex('be bf')), {
    kind: 'ok',
    fields: [
      { name: 'c', value: 'd', neverIndex: false },
      { name: 'a', value: 'b', neverIndex: false },
    ],
  });
});

void test('exactly at the limit is ok; malformed wins over too-large', () => {
  const fields = [{ name: 'x', value: 'y', neverIndex: false }];
  assert.equal(createHeaderBlockDecoder({ maxHeaderListBytes: 34 }).decode(encodeFields(fields)).kind, 'ok');
  assert.equal(createHeaderBlockDecoder({ maxHeaderListBytes: 33 }).decode(encodeFields(fields)).kind, 'too-large');
  const r = createHeaderBlockDecoder({ maxHeaderListBytes: 10 }).decode(Buffer.concat([encodeFields(fields), hex('80')]));
  assert.equal(r.kind, 'malformed');
});

void test('the codec defaults to SETTINGS_HEADER_TABLE_SIZE 4096 and takes another', () => {
  assert.equal(createHeaderBlockDecoder().decode(hex('3f e2 1f')).kind, 'malformed');
  assert.equal(createHeaderBlockDecoder().decode(hex('3f e1 1f')).kind, 'ok');
  assert.equal(createHeaderBlockDecoder({ maxTableSize: 8192 }).decode(hex('3f e2 1f')).kind, 'ok');
  assert.equal(createHeaderBlockDecoder({ maxTableSize: 0 }).decode(hex('21')).kind, 'malformed');
});
