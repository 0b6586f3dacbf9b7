/**
 * HTTP/2 server conformance, RFC 9113 §8 (HTTP semantics): header-block sequence (§8.1),
 * field validity and connection-specific fields (§8.2), pseudo-header fields (§8.3),
 * content-length (§8.1.1) and PUSH_PROMISE from a client (§8.4). A malformed request is a
 * stream error PROTOCOL_ERROR (a connection error is allowed too, §5.4.1). Header blocks are
 * hand-made literals (no table, no Huffman), so each field reaches the server as written.
 * Against a member in every client-port mode.
 */
import { grpcFields, RANGE_BODY, withField } from '../../support/h2-client/grpc.js';
import { ErrorCode, Flag, frame, FrameType, u32 } from '../../support/h2-client/frames.js';
import { literalBlock, type Fields } from '../../support/h2-client/hpack-bytes.js';
import { expectConnectionError, expectResponse, expectStreamError } from '../../support/h2-client/outcomes.js';
import { conformanceSuite, type CaseContext, type ConformanceCase } from '../../support/h2-client/suite.js';

/** The request `edit(valid fields)` with its body → stream error PROTOCOL_ERROR on stream 1. */
function malformed(title: string, edit: (fields: Fields) => Fields): ConformanceCase {
  return {
    title: `${title} → stream error PROTOCOL_ERROR`,
    run: async (ctx: CaseContext) => {
      const c = await ctx.open();
      c.headers(1, literalBlock(edit(grpcFields(ctx.target))));
      c.data(1, RANGE_BODY, true);
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  };
}

const pseudo = (fields: Fields): Fields => fields.filter(([n]) => n.startsWith(':'));
const regular = (fields: Fields): Fields => fields.filter(([n]) => !n.startsWith(':'));

conformanceSuite('HTTP/2 §8', [
  {
    title: '§8.1: a request in hand-made literals is answered (the baseline of this file)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, literalBlock(grpcFields(ctx.target)));
      c.data(1, RANGE_BODY, true);
      await expectResponse(c, 1);
    },
  },
  {
    title: '§8.1: trailers (a second HEADERS with END_STREAM and no pseudo-header) are accepted',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, literalBlock(grpcFields(ctx.target)));
      c.data(1, RANGE_BODY);
      c.headers(1, literalBlock([['x-trailer', 'yes']]), { endStream: true });
      await expectResponse(c, 1);
    },
  },
  {
    title: '§8.1: a second HEADERS without END_STREAM → stream error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, literalBlock(grpcFields(ctx.target)));
      c.data(1, RANGE_BODY);
      c.headers(1, literalBlock([['x-trailer', 'yes']]));
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§8.1: trailers carrying a pseudo-header → stream error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, literalBlock(grpcFields(ctx.target)));
      c.data(1, RANGE_BODY);
      c.headers(1, literalBlock([[':path', '/'], ['x-trailer', 'yes']]), { endStream: true });
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§8.1.1: content-length 1 with 8 octets of DATA → stream error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, literalBlock([...grpcFields(ctx.target), ['content-length', '1']]));
      c.data(1, RANGE_BODY, true);
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§8.1.1: content-length 100 with 8 octets of DATA over two frames → stream error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, literalBlock([...grpcFields(ctx.target), ['content-length', '100']]));
      c.data(1, RANGE_BODY.subarray(0, 4));
      c.data(1, RANGE_BODY.subarray(4), true);
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  },
  malformed('§8.2: an uppercase field name', (f) => [...f, ['X-Upper', 'a']]),
  malformed('§8.2.2: a connection-specific field (connection)', (f) => [...f, ['connection', 'keep-alive']]),
  malformed('§8.2.2: a connection-specific field (keep-alive)', (f) => [...f, ['keep-alive', 'timeout=5']]),
  malformed('§8.2.2: a connection-specific field (proxy-connection)', (f) => [...f, ['proxy-connection', 'keep-alive']]),
  malformed('§8.2.2: a connection-specific field (transfer-encoding)', (f) => [...f, ['transfer-encoding', 'chunked']]),
  malformed('§8.2.2: a connection-specific field (upgrade)', (f) => [...f, ['upgrade', 'h2c']]),
  malformed('§8.2.2: te other than "trailers"', (f) => withField(f, 'te', 'trailers, deflate')),
  malformed('§8.2.1: a field value with a NUL octet', (f) => [...f, ['x-nul', 'a\u0000b']]),
  malformed('§8.3: an unknown pseudo-header', (f) => [...pseudo(f), [':foo', 'bar'], ...regular(f)]),
  malformed('§8.3: :status (a response pseudo-header) in a request', (f) => [...pseudo(f), [':status', '200'], ...regular(f)]),
  malformed('§8.3: a pseudo-header after a regular field', (f) => [...withField(f, ':authority', undefined), [':authority', 'localhost']]),
  malformed('§8.3.1: :method twice', (f) => [...pseudo(f), [':method', 'POST'], ...regular(f)]),
  malformed('§8.3.1: :path twice', (f) => [...pseudo(f), [':path', '/etcdserverpb.KV/Range'], ...regular(f)]),
  malformed('§8.3.1: :scheme twice', (f) => [...pseudo(f), [':scheme', 'http'], ...regular(f)]),
  malformed('§8.3.1: no :method', (f) => withField(f, ':method', undefined)),
  malformed('§8.3.1: no :scheme', (f) => withField(f, ':scheme', undefined)),
  malformed('§8.3.1: no :path', (f) => withField(f, ':path', undefined)),
  malformed('§8.3.1: an empty :path', (f) => f.map(([n, v]) => (n === ':path' ? [n, ''] : [n, v]))),
  {
    title: '§8.4: PUSH_PROMISE from a client → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, literalBlock(grpcFields(ctx.target)));
      c.write(frame(FrameType.PUSH_PROMISE, Flag.END_HEADERS, 1, Buffer.concat([u32(2), literalBlock(grpcFields(ctx.target))])));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
]);
