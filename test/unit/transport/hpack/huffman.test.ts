/**
 * The Huffman code (RFC 7541 Appendix B) and its coder: the table is a complete prefix code
 * whose codes match the RFC's; every octet decodes from an independent encoder (hpack.js);
 * encode → decode is the identity; the three §5.2 refusals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import hpack from 'hpack.js';
import { EOS, HUFFMAN_CODES, HUFFMAN_LENGTHS } from '../../../../server/transport/hpack/huffman-table.js';
import { huffmanDecode, huffmanDecodedBound, huffmanEncode, huffmanEncodedLength, HuffmanError } from '../../../../server/transport/hpack/huffman.js';
import { HpackDecoder } from '../../../../server/transport/hpack/decoder.js';

const byteString = fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a).toString('latin1'));

function encode(s: string): Buffer {
  const out = Buffer.alloc(huffmanEncodedLength(s));
  assert.equal(huffmanEncode(s, out, 0), out.length);
  return out;
}

function decode(b: Buffer): string | number {
  const out = Buffer.alloc(huffmanDecodedBound(b.length));
  const n = huffmanDecode(b, 0, b.length, out);
  return n < 0 ? n : out.toString('latin1', 0, n);
}

void test('the code is complete (Kraft sum 1) and matches the RFC where spot-checked', () => {
  let sum = 0;
  for (let s = 0; s <= EOS; s++) sum += 2 ** -HUFFMAN_LENGTHS[s]!;
  assert.equal(sum, 1);
  const rfc: [number, number, number][] = [
    [0, 0x1ff8, 13], [10, 0x3ffffffc, 30], [32, 0x14, 6], [48, 0x0, 5], [65, 0x21, 6], [88, 0xfc, 8], [92, 0x7fff0, 19],
    [97, 0x3, 5], [127, 0xffffffc, 28], [128, 0xfffe6, 20], [200, 0x3ffffe2, 26], [255, 0x3ffffee, 26], [EOS, 0x3fffffff, 30],
  ];
  for (const [symbol, code, length] of rfc) assert.deepEqual([HUFFMAN_CODES[symbol], HUFFMAN_LENGTHS[symbol]], [code, length], `symbol ${symbol}`);
});

/** A literal-without-indexing block `x: value` with hpack.js's Huffman-coded value. */
function hpackJsBlock(value: string): Buffer {
  const c = hpack.compressor.create({ table: { maxSize: 4096 } });
  c.write([{ name: 'x', value, incremental: false }]);
  return c.read() ?? Buffer.alloc(0);
}

void test('every octet, alone and all together, decodes from hpack.js Huffman strings', () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i)).toString('latin1');
  for (const value of [all, ...all]) {
    const r = new HpackDecoder({ maxTableSize: 4096, maxHeaderListBytes: Infinity }).decode(hpackJsBlock(value));
    assert.deepEqual(r, { kind: 'ok', fields: [{ name: 'x', value, neverIndex: false }] });
  }
});

void test('ours encode → hpack.js decode, and ours encode → ours decode, are the identity', () => {
  fc.assert(
    fc.property(byteString, (s) => {
      const coded = encode(s);
      assert.equal(decode(coded), s);
      const block = Buffer.concat([Buffer.from([0x00, 0x01, 0x78]), Buffer.from([0x80 | coded.length]), coded]);
      if (coded.length >= 127) return; // keep the one-octet length above
      const d = hpack.decompressor.create({ table: { maxSize: 4096 } });
      d.write(block);
      d.execute();
      assert.equal(d.read()?.value, s);
    }),
  );
});

void test('§5.2 refusals: EOS inside a string, padding of 8 bits or more, padding not all ones', () => {
  assert.equal(decode(Buffer.from([0xff, 0xff, 0xff, 0xff])), HuffmanError.Eos); // EOS (30 ones) + 2 ones
  assert.equal(decode(Buffer.from([0x1f, 0xff])), HuffmanError.PaddingTooLong); // 'a' + 11 ones
  assert.equal(decode(Buffer.from([0xff])), HuffmanError.PaddingTooLong); // 8 ones, no symbol
  assert.equal(decode(Buffer.from([0x18])), HuffmanError.PaddingNotOnes); // 'a' + 000
  assert.equal(decode(Buffer.from([0x1e])), HuffmanError.PaddingNotOnes); // 'a' + 110
  assert.equal(decode(Buffer.from([0x1f])), 'a'); // 'a' + 111
  assert.equal(decode(encode('aaaaa')), 'aaaaa'); // 25 bits: 7 bits of padding
  assert.equal(decode(Buffer.alloc(0)), '');
});
