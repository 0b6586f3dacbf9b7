/**
 * HTTP/2 server conformance, RFC 9113 §3.4 (connection preface), §4.1–4.3 (frame format, frame
 * size, field compression), §5.5 (extensions) and §7 (error codes), against a member in every
 * client-port mode (test/support/h2-client/modes.ts).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { grpcFields } from '../../support/h2-client/grpc.js';
import { DEFAULT_MAX_FRAME_SIZE, ErrorCode, Flag, frame, FrameType, goaway, PREFACE, priorityBlock, rstStream, settingsFrame } from '../../support/h2-client/frames.js';
import { literal } from '../../support/h2-client/hpack-bytes.js';
import { expectAlive, expectConnectionError, expectNoErrors, expectResponse, expectStreamError } from '../../support/h2-client/outcomes.js';
import { conformanceSuite, validCall } from '../../support/h2-client/suite.js';

/** RangeRequest { key: "k" * n } framed as one gRPC message of exactly `total` octets (prefix included). */
function rangeMessageOfSize(total: number): Buffer {
  const keyLength = total - 5 - 1 - 3; // tag, 3-octet varint length
  const varint = Buffer.from([(keyLength & 0x7f) | 0x80, ((keyLength >> 7) & 0x7f) | 0x80, keyLength >> 14]);
  const message = Buffer.concat([Buffer.from([0x0a]), varint, Buffer.alloc(keyLength, 0x6b)]);
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

conformanceSuite('HTTP/2 §3.4 §4 §5.5 §7', [
  {
    title: '§3.4: the preface and SETTINGS → the server sends SETTINGS first and acknowledges ours',
    run: async (ctx) => {
      const c = await ctx.open();
      assert.equal(c.received[0].type, FrameType.SETTINGS, c.transcript());
      assert.equal(c.received[0].flags & Flag.ACK, 0, c.transcript());
      await c.waitUntil('a SETTINGS ACK', () => (c.received.some((f) => f.type === FrameType.SETTINGS && (f.flags & Flag.ACK) !== 0) ? true : undefined));
      await validCall(c, ctx.target, 1);
    },
  },
  {
    title: '§3.4: the preface one octet per write, SETTINGS and a request in the same write → answered',
    run: async (ctx) => {
      const c = await ctx.open({ preface: false, settings: null, handshake: false });
      const req = Buffer.concat([c.headersFrame(1, grpcFields(ctx.target)), frame(FrameType.DATA, Flag.END_STREAM, 1, Buffer.from([0, 0, 0, 0, 3, 0x0a, 1, 0x6b]))]);
      await c.writeSplit(PREFACE, Array.from({ length: PREFACE.length }, (_, i) => i));
      c.write(Buffer.concat([settingsFrame(), req]));
      await expectResponse(c, 1);
    },
  },
  {
    title: '§3.4: an invalid preface ("PRI * HTTP/2.0" with another tail) → connection error PROTOCOL_ERROR, no HTTP/1.1 answer',
    run: async (ctx) => {
      const c = await ctx.open({ preface: false, settings: null, handshake: false });
      c.write(Buffer.from('PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n', 'latin1'));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
      assert.ok(!c.firstBytes.toString('latin1').startsWith('HTTP/'), `an HTTP/1.x answer: ${JSON.stringify(c.firstBytes.toString('latin1'))}`);
    },
  },
  {
    title: '§3.4: the preface followed by a PING instead of SETTINGS → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open({ settings: null, handshake: false });
      c.write(frame(FrameType.PING, 0, 0, Buffer.alloc(8)));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§4.1/§5.5: a frame of an unknown type (stream 0 and an idle stream) is ignored',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.UNKNOWN, 0xff, 0, randomBytes(16)));
      c.write(frame(FrameType.UNKNOWN, 0, 7, randomBytes(16)));
      await expectAlive(c);
      await validCall(c, ctx.target, 1);
      expectNoErrors(c);
    },
  },
  {
    title: '§4.1: undefined flags on a PING are ignored (answered with an ACK)',
    run: async (ctx) => {
      const c = await ctx.open();
      const opaque = randomBytes(8);
      c.write(frame(FrameType.PING, 0xfe, 0, opaque));
      await c.waitUntil('a PING ACK', () => (c.received.some((f) => f.type === FrameType.PING && f.flags === Flag.ACK && f.payload.equals(opaque)) ? true : undefined));
    },
  },
  {
    title: '§4.1: the reserved bit of a stream id is ignored (a request with it set is answered)',
    run: async (ctx) => {
      const c = await ctx.open();
      const head = c.headersFrame(1, grpcFields(ctx.target));
      head[5] |= 0x80;
      c.write(head);
      c.write(frame(FrameType.DATA, Flag.END_STREAM, 1, Buffer.from([0, 0, 0, 0, 3, 0x0a, 1, 0x6b]), { reservedBit: true }));
      await expectResponse(c, 1);
    },
  },
  {
    title: '§4.2: a DATA frame of exactly 2^14 octets is accepted',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.data(1, rangeMessageOfSize(DEFAULT_MAX_FRAME_SIZE), true);
      await expectResponse(c, 1);
    },
  },
  {
    title: '§4.2: a DATA frame over SETTINGS_MAX_FRAME_SIZE → FRAME_SIZE_ERROR (stream or connection error)',
    run: async (ctx) => {
      const c = await ctx.open();
      const max = c.serverSettings.get(5) ?? DEFAULT_MAX_FRAME_SIZE;
      c.headers(1, grpcFields(ctx.target));
      c.data(1, Buffer.alloc(max + 1));
      await expectStreamError(c, 1, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  {
    title: '§4.2: a HEADERS frame over SETTINGS_MAX_FRAME_SIZE → connection error FRAME_SIZE_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      const max = c.serverSettings.get(5) ?? DEFAULT_MAX_FRAME_SIZE;
      const block = Buffer.concat([c.encode(grpcFields(ctx.target)), literal('x-big', 'x'.repeat(max + 16))]);
      c.headers(1, block, { endStream: true });
      await expectConnectionError(c, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  {
    title: '§4.3: a header block that does not decode (string longer than the block) → connection error COMPRESSION_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      const block = Buffer.concat([c.encode(grpcFields(ctx.target)), Buffer.from([0x00, 0x0a, 0x78])]);
      c.headers(1, block, { endStream: true });
      await expectConnectionError(c, ErrorCode.COMPRESSION_ERROR);
    },
  },
  {
    title: '§4.3: a PRIORITY frame between HEADERS and CONTINUATION → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      const block = c.encode(grpcFields(ctx.target));
      c.headers(1, block.subarray(0, 3), { endHeaders: false, endStream: true });
      c.write(frame(FrameType.PRIORITY, 0, 1, priorityBlock(0)));
      c.write(frame(FrameType.CONTINUATION, Flag.END_HEADERS, 1, block.subarray(3)));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.5: an unknown extension frame inside a header block → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      const block = c.encode(grpcFields(ctx.target));
      c.headers(1, block.subarray(0, 3), { endHeaders: false, endStream: true });
      c.write(frame(FrameType.UNKNOWN, 0, 1, randomBytes(8)));
      c.write(frame(FrameType.CONTINUATION, Flag.END_HEADERS, 1, block.subarray(3)));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§7: RST_STREAM with an unknown error code is accepted (the connection goes on)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(rstStream(1, 0xff));
      await expectAlive(c);
      await validCall(c, ctx.target, 3);
      const goaways = c.received.filter((f) => f.type === FrameType.GOAWAY);
      assert.equal(goaways.length, 0, c.transcript());
    },
  },
  {
    title: '§7: GOAWAY with an unknown error code is accepted (PING answered or a clean close, no error GOAWAY)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(goaway(0, 0xff));
      const opaque = randomBytes(8);
      c.write(frame(FrameType.PING, 0, 0, opaque));
      await c.waitUntil('a PING ACK or a close', () => (c.closed || c.received.some((f) => f.type === FrameType.PING && f.payload.equals(opaque)) ? true : undefined));
      const bad = c.received.find((f) => f.type === FrameType.GOAWAY && f.payload.length >= 8 && f.payload.readUInt32BE(4) !== ErrorCode.NO_ERROR);
      assert.equal(bad, undefined, c.transcript());
    },
  },
]);
