/**
 * Every block the decoder must refuse ('malformed', the caller's COMPRESSION_ERROR), with the
 * rule in the reason; and the context being spent afterwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HpackDecoder } from '../../../../server/transport/hpack/decoder.js';
import { decodeOk, hex, refusal } from './hpack-test-util.js';

const fresh = (maxTableSize = 4096): HpackDecoder => new HpackDecoder({ maxTableSize, maxHeaderListBytes: Infinity });

void test('index 0 (§6.1), as a field or as a name', () => {
  assert.match(refusal(fresh(), hex('80')), /index 0 .*§6\.1/);
  assert.match(refusal(fresh(), hex('82 80')), /index 0 in the representation at octet 1/);
});

void test('an index beyond the static + dynamic tables (§2.3.3), as a field or as a name', () => {
  assert.match(refusal(fresh(), hex('be')), /index 62 .* beyond .*61 \+ 0 entries/);
  assert.match(refusal(fresh(), hex('7e 01 61')), /index 62 .* beyond/); // incremental, name index 62
  assert.match(refusal(fresh(), hex('0f 2f 01 61')), /index 62 .* beyond/); // without indexing, name index 15 + 47
  const d = fresh();
  decodeOk(d, hex('40 01 61 01 62')); // a: b, now index 62
  assert.deepEqual(decodeOk(d, hex('be')), [['a', 'b']]);
  assert.match(refusal(d, hex('bf')), /index 63 .* beyond .*61 \+ 1 entries/);
});

void test('a dynamic table size update above the allowed maximum (§6.3)', () => {
  assert.match(refusal(fresh(), hex('3f e2 1f')), /size update to 4097 .* above the 4096 allowed/);
  assert.deepEqual(decodeOk(fresh(), hex('3f e1 1f 82')), [[':method', 'GET']]); // 4096 itself
  assert.match(refusal(fresh(100), hex('3f 46')), /size update to 101 .* above the 100 allowed/);
  assert.match(refusal(fresh(0), hex('21')), /size update to 1 .* above the 0 allowed/);
});

void test('a dynamic table size update after a field, at the end or in the middle (§4.2)', () => {
  assert.match(refusal(fresh(), hex('82 20')), /size update at octet 1, after a header field .*§4\.2/);
  assert.match(refusal(fresh(), hex('82 3f e1 1f 84')), /after a header field/);
  assert.match(refusal(fresh(), hex('20 82 20')), /after a header field/);
});

void test('several size updates at the beginning are allowed; going to 0 evicts everything', () => {
  const d = fresh();
  decodeOk(d, hex('40 01 61 01 62'));
  assert.equal(d.table.length, 1);
  assert.deepEqual(decodeOk(d, hex('20 3f e1 1f 82')), [[':method', 'GET']]);
  assert.equal(d.table.length, 0);
  assert.equal(d.table.maxSize, 4096);
  assert.match(refusal(d, hex('be')), /beyond/);
});

void test('integers that overflow or run past the block (§5.1)', () => {
  assert.match(refusal(fresh(), hex('ff ff ff ff ff 0f')), /index at octet 0 exceeds 2147483647/);
  assert.match(refusal(fresh(), hex('ff 80 80 80 80 80 00')), /exceeds/); // six continuation octets
  assert.match(refusal(fresh(), hex('ff 80')), /index at octet 0 runs past the end/);
  assert.match(refusal(fresh(), hex('3f')), /dynamic table size at octet 0 runs past the end/);
  assert.match(refusal(fresh(), hex('0f')), /name index at octet 0 runs past the end/);
  assert.match(refusal(fresh(), hex('00 7f ff ff ff ff 0f')), /name length .* exceeds/);
});

void test('a string length past the end of the block', () => {
  assert.match(refusal(fresh(), hex('00 05 61 62')), /name of 5 octets at octet 2 runs past the end of the block \(2 left\)/);
  assert.match(refusal(fresh(), hex('44 85 61')), /value of 5 octets .* runs past the end/);
  assert.match(refusal(fresh(), hex('00 7f 00')), /name of 127 octets/);
});

void test('a block that ends in the middle of a representation', () => {
  assert.match(refusal(fresh(), hex('40')), /name missing: the block ends inside a representation/);
  assert.match(refusal(fresh(), hex('44')), /value missing/);
  assert.match(refusal(fresh(), hex('10 01 61')), /value missing/);
  assert.match(refusal(fresh(), hex('82 00 01 61 01')), /value of 1 octets/);
});

void test('Huffman strings: EOS inside, padding over 7 bits, padding not all ones (§5.2)', () => {
  assert.match(refusal(fresh(), hex('00 01 78 84 ff ff ff ff')), /value at octet 4: .*EOS/);
  assert.match(refusal(fresh(), hex('00 01 78 82 1f ff')), /padding longer than 7 bits/);
  assert.match(refusal(fresh(), hex('00 81 ff 01 61')), /name at octet 2: .*padding longer than 7 bits/);
  assert.match(refusal(fresh(), hex('00 01 78 81 18')), /padding is not the most significant bits of EOS/);
  assert.deepEqual(decodeOk(fresh(), hex('00 01 78 81 1f')), [['x', 'a']]);
});

void test('a refused block spends the context: nothing decodes after it, nothing is half-applied', () => {
  const d = fresh();
  assert.match(refusal(d, hex('40 01 61 01 62 80')), /index 0/);
  assert.match(refusal(d, hex('82')), /context unusable after: HPACK: index 0/);
});

void test('maxTableSize bounds the table: entries larger than it are not kept', () => {
  const d = fresh(40);
  decodeOk(d, hex('40 01 61 01 62')); // 34 octets: kept
  assert.equal(d.table.size, 34);
  decodeOk(d, hex('40 01 63 0a 30 31 32 33 34 35 36 37 38 39')); // 43 octets: empties the table
  assert.equal(d.table.length, 0);
  assert.match(refusal(d, hex('be')), /beyond/);
});
