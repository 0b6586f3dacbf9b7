/**
 * Laws of the codec, on random input (fast-check):
 * - encodeFields → decode is the identity on any byte strings (neverIndex kept), in any context;
 * - blocks from an independent encoder with a dynamic table (hpack.js), in sequence, decode to
 *   its input; and hpack.js decodes what encodeFields makes;
 * - any bytes, random or mutated from valid blocks, decode to 'ok' or 'malformed', never throw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import hpack from 'hpack.js';
import { HpackDecoder } from '../../../../server/transport/hpack/decoder.js';
import { encodeFields } from '../../../../server/transport/hpack/encoder.js';
import type { HeaderField } from '../../../../server/transport/hpack/header-field.js';

const bytes = (maxLength: number): fc.Arbitrary<string> => fc.uint8Array({ maxLength }).map((a) => Buffer.from(a).toString('latin1'));
const common = fc.constantFrom(':method', ':path', ':status', 'content-type', 'grpc-status', 'user-agent', 'te', ':authority');
const name = fc.oneof(common, bytes(20));
const value = fc.oneof(fc.constantFrom('', 'GET', 'POST', '200', '/', 'http', 'trailers', 'application/grpc'), bytes(80));
const field: fc.Arbitrary<HeaderField> = fc.record({ name, value, neverIndex: fc.boolean() }, { noNullPrototype: true });
const decoder = (maxTableSize = 4096): HpackDecoder => new HpackDecoder({ maxTableSize, maxHeaderListBytes: Infinity });

void test('encodeFields → decode is the identity, with any decoding context', () => {
  fc.assert(
    fc.property(fc.array(field, { maxLength: 12 }), fc.constantFrom(0, 4096), (fields, tableSize) => {
      const d = decoder(tableSize);
      d.decode(Buffer.from('4001610162', 'hex')); // an entry in the table (or not): irrelevant
      assert.deepEqual(d.decode(encodeFields(fields)), { kind: 'ok', fields });
      assert.equal(d.table.length, tableSize === 0 ? 0 : 1, 'encodeFields inserts nothing');
    }),
  );
});

void test('hpack.js decodes what encodeFields makes', () => {
  fc.assert(
    fc.property(fc.array(field, { minLength: 1, maxLength: 12 }), (fields) => {
      const d = hpack.decompressor.create({ table: { maxSize: 4096 } });
      d.write(encodeFields(fields));
      d.execute();
      const out: HeaderField[] = [];
      for (let h = d.read(); h !== null; h = d.read()) out.push({ name: h.name, value: h.value, neverIndex: h.neverIndex === true });
      assert.deepEqual(out, fields);
    }),
  );
});

/** Header lists drawn from a small pool, so later blocks index what earlier ones inserted. */
const pooledBlocks = fc.array(field, { minLength: 1, maxLength: 8 }).chain((pool) =>
  fc.array(fc.array(fc.constantFrom(...pool), { maxLength: 10 }), { minLength: 1, maxLength: 8 }),
);

void test('sequences of hpack.js blocks (dynamic table, evictions, Huffman or not) decode to their input', () => {
  fc.assert(
    fc.property(pooledBlocks, fc.constantFrom(0, 64, 256, 4096), fc.boolean(), (blocks, maxSize, huffman) => {
      const compressor = hpack.compressor.create({ table: { maxSize } });
      const d = decoder(maxSize);
      for (const fields of blocks) {
        compressor.write(fields.map((f) => ({ ...f, huffman })));
        const block = compressor.read() ?? Buffer.alloc(0);
        assert.deepEqual(d.decode(block), { kind: 'ok', fields });
      }
    }),
  );
});

function neverThrows(blocks: readonly Buffer[]): void {
  const d = decoder();
  for (const b of blocks) {
    const kind = d.decode(b).kind;
    assert.ok(kind === 'ok' || kind === 'malformed', kind);
  }
}

void test('random bytes decode to ok or malformed, never throw', () => {
  fc.assert(fc.property(fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 4 }), (blocks) => neverThrows(blocks.map((b) => Buffer.from(b)))), { numRuns: 2000 });
});

void test('valid blocks with an octet changed, cut or extended decode to ok or malformed, never throw', () => {
  fc.assert(
    fc.property(fc.array(field, { minLength: 1, maxLength: 6 }), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.nat(), (fields, at, octet, cut) => {
      const c = hpack.compressor.create({ table: { maxSize: 4096 } });
      c.write(fields);
      const block = Buffer.from(c.read() ?? Buffer.alloc(0));
      if (block.length === 0) return;
      const changed = Buffer.from(block);
      changed[at % block.length] = octet;
      neverThrows([changed, block.subarray(0, cut % block.length), Buffer.concat([block, Buffer.from([octet])])]);
    }),
    { numRuns: 1000 },
  );
});
