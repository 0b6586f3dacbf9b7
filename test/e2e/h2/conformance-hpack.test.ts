/**
 * HPACK conformance of the server's decoder, RFC 7541 (and RFC 9113 §4.3: a decoding error is
 * a connection error COMPRESSION_ERROR): index 0, indexes out of range, dynamic table size
 * updates (above the limit, after a field), integer overflow, and the three broken Huffman
 * strings of §5.2 — and, as baselines, blocks a decoder must take: literals only, the dynamic
 * table across requests, a size update at the start, a good Huffman string. Against a member
 * in every client-port mode.
 */
import { grpcFields, RANGE_BODY } from '../../support/h2-client/grpc.js';
import { ErrorCode, Setting } from '../../support/h2-client/frames.js';
import { BadHuffman, GOOD_HUFFMAN_A, huffmanString, indexed, literalBlock, literalIndexedName, literalIndexing, rawString, tableSizeUpdate } from '../../support/h2-client/hpack-bytes.js';
import { expectConnectionError, expectResponse } from '../../support/h2-client/outcomes.js';
import { conformanceSuite, validCall, type CaseContext, type ConformanceCase } from '../../support/h2-client/suite.js';

/** The valid request's block, then `extra` appended (or prepended) → `expect`. */
function block(title: string, make: (valid: Buffer, ctx: CaseContext, tableLimit: number) => Buffer, expect: 'answered' | 'COMPRESSION_ERROR'): ConformanceCase {
  return {
    title: `${title} → ${expect === 'answered' ? 'answered' : 'connection error COMPRESSION_ERROR'}`,
    run: async (ctx) => {
      const c = await ctx.open();
      const limit = c.serverSettings.get(Setting.HEADER_TABLE_SIZE) ?? 4096;
      c.headers(1, make(literalBlock(grpcFields(ctx.target)), ctx, limit));
      c.data(1, RANGE_BODY, true);
      if (expect === 'answered') await expectResponse(c, 1);
      else await expectConnectionError(c, ErrorCode.COMPRESSION_ERROR);
    },
  };
}

const field = (name: string, value: Buffer): Buffer => Buffer.concat([Buffer.from([0x00]), rawString(name), value]);

conformanceSuite('HPACK (RFC 7541)', [
  block('a block of literals without indexing, raw strings', (valid) => valid, 'answered'),
  block('§6.3: a table size update (to 0) at the start of the block', (valid) => Buffer.concat([tableSizeUpdate(0), valid]), 'answered'),
  block('§4.2: two table size updates at the start of the block', (valid, _c, limit) => Buffer.concat([tableSizeUpdate(0), tableSizeUpdate(limit), valid]), 'answered'),
  block('§5.2: a correctly Huffman-coded value', (valid) => Buffer.concat([valid, field('x-a', huffmanString(GOOD_HUFFMAN_A))]), 'answered'),
  block('§6.2.1: literals with incremental indexing, then indexed from the dynamic table', (valid) => Buffer.concat([valid, literalIndexing('x-dyn', 'v'), indexed(62)]), 'answered'),
  {
    title: 'the dynamic table carries over between three requests (hpack.js encoder, Huffman) → all answered',
    run: async (ctx) => {
      const c = await ctx.open();
      for (const stream of [1, 3, 5]) await validCall(c, ctx.target, stream);
    },
  },
  block('§6.1: index 0', (valid) => Buffer.concat([valid, indexed(0)]), 'COMPRESSION_ERROR'),
  block('§2.3.3: an indexed field past the static table with an empty dynamic table', (valid) => Buffer.concat([valid, indexed(62)]), 'COMPRESSION_ERROR'),
  block('§2.3.3: an indexed field far out of range (index 4000)', (valid) => Buffer.concat([valid, indexed(4000)]), 'COMPRESSION_ERROR'),
  block('§2.3.3: a literal whose name index is out of range', (valid) => Buffer.concat([valid, literalIndexedName(70, 'v')]), 'COMPRESSION_ERROR'),
  block('§6.3: a table size update above SETTINGS_HEADER_TABLE_SIZE', (valid, _c, limit) => Buffer.concat([tableSizeUpdate(limit + 1), valid]), 'COMPRESSION_ERROR'),
  block('§4.2: a table size update at the end of the block', (valid) => Buffer.concat([valid, tableSizeUpdate(0)]), 'COMPRESSION_ERROR'),
  block('§4.2: a table size update between two fields', (_valid, ctx) => {
    const [first, ...rest] = grpcFields(ctx.target);
    return Buffer.concat([literalBlock([first]), tableSizeUpdate(0), literalBlock(rest)]);
  }, 'COMPRESSION_ERROR'),
  block('§5.1: an integer over 2^32 (index with a long continuation)', (valid) => Buffer.concat([valid, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])]), 'COMPRESSION_ERROR'),
  block('§5.2: a string literal whose length runs past the block', (valid) => Buffer.concat([valid, Buffer.from([0x00, 0x01, 0x78, 0x7f])]), 'COMPRESSION_ERROR'),
  block('§5.2: Huffman padding longer than 7 bits', (valid) => Buffer.concat([valid, field('x-h', huffmanString(BadHuffman.longPadding))]), 'COMPRESSION_ERROR'),
  block('§5.2: Huffman padding that is not the EOS prefix (zeros)', (valid) => Buffer.concat([valid, field('x-h', huffmanString(BadHuffman.zeroPadding))]), 'COMPRESSION_ERROR'),
  block('§5.2: a Huffman string containing EOS', (valid) => Buffer.concat([valid, field('x-h', huffmanString(BadHuffman.eos))]), 'COMPRESSION_ERROR'),
]);
