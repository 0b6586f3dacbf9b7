/**
 * HTTP/2 server conformance, RFC 9113 §6.1–§6.8 and §6.10: each frame type's stream id, length,
 * padding and flag rules (DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PING, GOAWAY,
 * CONTINUATION), against a member in every client-port mode. WINDOW_UPDATE and flow control
 * (§6.9) are in conformance-flow-control.test.ts.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { grpcFields, RANGE_BODY } from '../../support/h2-client/grpc.js';
import { ErrorCode, Flag, frame, FrameType, goaway, padded, ping, priorityBlock, Setting, settingsPayload, u32 } from '../../support/h2-client/frames.js';
import { expectAlive, expectConnectionError, expectResponse, expectStreamError } from '../../support/h2-client/outcomes.js';
import { conformanceSuite, validCall, type CaseContext } from '../../support/h2-client/suite.js';

/** A SETTINGS frame with one setting → the connection error `code`. */
function badSetting(id: number, value: number, code: number) {
  return async (ctx: CaseContext): Promise<void> => {
    const c = await ctx.open();
    c.write(frame(FrameType.SETTINGS, 0, 0, settingsPayload([[id, value]])));
    await expectConnectionError(c, code);
  };
}

/** `bytes` sent after an open request on stream 1 → the connection error `code`. */
function afterOpenStream(make: (block: Buffer) => Buffer, code: number) {
  return async (ctx: CaseContext): Promise<void> => {
    const c = await ctx.open();
    c.write(make(c.encode(grpcFields(ctx.target))));
    await expectConnectionError(c, code);
  };
}

const endHeaders = (block: Buffer, stream = 1): Buffer => frame(FrameType.CONTINUATION, Flag.END_HEADERS, stream, block);
const openHeaders = (block: Buffer, stream: number): Buffer => frame(FrameType.HEADERS, Flag.END_STREAM | Flag.END_HEADERS, stream, block);

conformanceSuite('HTTP/2 §6.1–§6.8 §6.10', [
  // §6.1 DATA
  {
    title: '§6.1: DATA on stream 0 → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.data(0, RANGE_BODY);
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.1: DATA whose pad length is the payload length → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(frame(FrameType.DATA, Flag.PADDED | Flag.END_STREAM, 1, Buffer.concat([Buffer.from([RANGE_BODY.length + 1]), RANGE_BODY])));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.1: DATA whose pad length exceeds the payload → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(frame(FrameType.DATA, Flag.PADDED | Flag.END_STREAM, 1, Buffer.from([200, 0, 0])));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.1/§4.2: PADDED DATA with an empty payload (no pad length octet) → PROTOCOL_ERROR or FRAME_SIZE_ERROR (stream or connection error)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(frame(FrameType.DATA, Flag.PADDED | Flag.END_STREAM, 1));
      await expectStreamError(c, 1, [ErrorCode.PROTOCOL_ERROR, ErrorCode.FRAME_SIZE_ERROR]);
    },
  },
  {
    title: '§6.1: correctly padded DATA (and a zero pad length) is accepted',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(frame(FrameType.DATA, Flag.PADDED, 1, padded(RANGE_BODY.subarray(0, 4), 0)));
      c.write(frame(FrameType.DATA, Flag.PADDED | Flag.END_STREAM, 1, padded(RANGE_BODY.subarray(4), 17)));
      await expectResponse(c, 1);
    },
  },
  // §6.2 HEADERS
  {
    title: '§6.2: HEADERS on stream 0 → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => openHeaders(block, 0), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.2: HEADERS whose pad length exceeds the payload → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => frame(FrameType.HEADERS, Flag.END_HEADERS | Flag.END_STREAM | Flag.PADDED, 1, Buffer.concat([Buffer.from([block.length + 1]), block])), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.2: HEADERS without END_HEADERS followed by DATA → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => Buffer.concat([frame(FrameType.HEADERS, 0, 1, block), frame(FrameType.DATA, Flag.END_STREAM, 1, RANGE_BODY)]), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.2: HEADERS without END_HEADERS followed by HEADERS on another stream → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => Buffer.concat([frame(FrameType.HEADERS, 0, 1, block), frame(FrameType.HEADERS, Flag.END_HEADERS, 3, block)]), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.2: padded HEADERS with a priority block is accepted',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target), { pad: 13, priority: priorityBlock(0, 200, true) });
      c.data(1, RANGE_BODY, true);
      await expectResponse(c, 1);
    },
  },
  // §6.3 PRIORITY
  {
    title: '§6.3: PRIORITY on stream 0 → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.PRIORITY, 0, 0, priorityBlock(1)));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.3: PRIORITY of 4 octets → stream error FRAME_SIZE_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(frame(FrameType.PRIORITY, 0, 1, priorityBlock(0).subarray(0, 4)));
      await expectStreamError(c, 1, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  // §6.4 RST_STREAM
  {
    title: '§6.4: RST_STREAM on stream 0 → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.RST_STREAM, 0, 0, u32(ErrorCode.CANCEL)));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.4: RST_STREAM of 3 octets → connection error FRAME_SIZE_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(frame(FrameType.RST_STREAM, 0, 1, Buffer.alloc(3)));
      await expectConnectionError(c, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  // §6.5 SETTINGS
  {
    title: '§6.5: SETTINGS ACK with a payload → connection error FRAME_SIZE_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.SETTINGS, Flag.ACK, 0, settingsPayload([[Setting.ENABLE_PUSH, 0]])));
      await expectConnectionError(c, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  {
    title: '§6.5: SETTINGS on a stream other than 0 → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.SETTINGS, 0, 1, settingsPayload([[Setting.ENABLE_PUSH, 0]])));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.5: SETTINGS whose length is not a multiple of 6 → connection error FRAME_SIZE_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.SETTINGS, 0, 0, Buffer.alloc(3)));
      await expectConnectionError(c, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  {
    title: '§6.5.2: SETTINGS_ENABLE_PUSH = 2 → connection error PROTOCOL_ERROR',
    run: badSetting(Setting.ENABLE_PUSH, 2, ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.5.2: SETTINGS_INITIAL_WINDOW_SIZE = 2^31 → connection error FLOW_CONTROL_ERROR',
    run: badSetting(Setting.INITIAL_WINDOW_SIZE, 2 ** 31, ErrorCode.FLOW_CONTROL_ERROR),
  },
  {
    title: '§6.5.2: SETTINGS_MAX_FRAME_SIZE = 16383 → connection error PROTOCOL_ERROR',
    run: badSetting(Setting.MAX_FRAME_SIZE, 16_383, ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.5.2: SETTINGS_MAX_FRAME_SIZE = 2^24 → connection error PROTOCOL_ERROR',
    run: badSetting(Setting.MAX_FRAME_SIZE, 2 ** 24, ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.5.2: an unknown setting identifier is ignored (SETTINGS acknowledged, requests answered)',
    run: async (ctx) => {
      const c = await ctx.open();
      const acks = (): number => c.received.filter((f) => f.type === FrameType.SETTINGS && (f.flags & Flag.ACK) !== 0).length;
      await c.waitUntil('the first SETTINGS ACK', () => (acks() >= 1 ? true : undefined));
      c.write(frame(FrameType.SETTINGS, 0, 0, settingsPayload([[0xff, 1], [0x4242, 0xffffffff]])));
      await c.waitUntil('a second SETTINGS ACK', () => (acks() >= 2 ? true : undefined));
      await validCall(c, ctx.target, 1);
    },
  },
  {
    title: '§6.5.3: every SETTINGS frame is acknowledged with an empty SETTINGS ACK',
    run: async (ctx) => {
      const c = await ctx.open({ settings: [[Setting.MAX_CONCURRENT_STREAMS, 100], [Setting.ENABLE_PUSH, 0]] });
      c.write(frame(FrameType.SETTINGS, 0, 0, settingsPayload([[Setting.HEADER_TABLE_SIZE, 4096]])));
      const acks = await c.waitUntil('two SETTINGS ACKs', () => {
        const a = c.received.filter((f) => f.type === FrameType.SETTINGS && (f.flags & Flag.ACK) !== 0);
        return a.length >= 2 ? a : undefined;
      });
      for (const a of acks) assert.equal(a.payload.length, 0);
    },
  },
  // §6.7 PING
  {
    title: '§6.7: PING is answered with an ACK of the same payload',
    run: async (ctx) => {
      const c = await ctx.open();
      await expectAlive(c);
    },
  },
  {
    title: '§6.7: a PING ACK is not answered',
    run: async (ctx) => {
      const c = await ctx.open();
      const unsolicited = randomBytes(8);
      c.write(ping(unsolicited, true));
      await expectAlive(c);
      const echoed = c.received.find((f) => f.type === FrameType.PING && f.payload.equals(unsolicited));
      assert.equal(echoed, undefined, c.transcript());
    },
  },
  {
    title: '§6.7: PING on a stream other than 0 → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.PING, 0, 1, Buffer.alloc(8)));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.7: PING of 9 octets → connection error FRAME_SIZE_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.PING, 0, 0, Buffer.alloc(9)));
      await expectConnectionError(c, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  // §6.8 GOAWAY
  {
    title: '§6.8: GOAWAY on a stream other than 0 → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.GOAWAY, 0, 1, Buffer.concat([u32(0), u32(ErrorCode.NO_ERROR)])));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.8: a client GOAWAY(NO_ERROR) leaves the server able to finish (no error GOAWAY in reply)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(goaway(1, ErrorCode.NO_ERROR));
      c.data(1, RANGE_BODY, true);
      await c.waitUntil('the answer to stream 1 or a close', () => (c.closed || c.onStream(1).some((f) => (f.flags & Flag.END_STREAM) !== 0) ? true : undefined));
      const bad = c.received.find((f) => f.type === FrameType.GOAWAY && f.payload.readUInt32BE(4) !== ErrorCode.NO_ERROR);
      assert.equal(bad, undefined, c.transcript());
    },
  },
  // §6.10 CONTINUATION
  {
    title: '§6.10: HEADERS + CONTINUATION + CONTINUATION (END_HEADERS) is accepted',
    run: async (ctx) => {
      const c = await ctx.open();
      const block = c.encode(grpcFields(ctx.target));
      c.write(Buffer.concat([
        frame(FrameType.HEADERS, 0, 1, block.subarray(0, 2)),
        frame(FrameType.CONTINUATION, 0, 1, block.subarray(2, 5)),
        frame(FrameType.CONTINUATION, Flag.END_HEADERS, 1, block.subarray(5)),
        frame(FrameType.DATA, Flag.END_STREAM, 1, RANGE_BODY),
      ]));
      await expectResponse(c, 1);
    },
  },
  {
    title: '§6.10: CONTINUATION after a HEADERS with END_HEADERS → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => Buffer.concat([frame(FrameType.HEADERS, Flag.END_HEADERS, 1, block), endHeaders(Buffer.from([0x82]))]), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.10: CONTINUATION after DATA → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => Buffer.concat([frame(FrameType.HEADERS, Flag.END_HEADERS, 1, block), frame(FrameType.DATA, 0, 1, RANGE_BODY), endHeaders(Buffer.from([0x82]))]), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.10: CONTINUATION on stream 0 → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => Buffer.concat([frame(FrameType.HEADERS, 0, 1, block.subarray(0, 2)), endHeaders(block.subarray(2), 0)]), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.10: CONTINUATION on another stream than its HEADERS → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => Buffer.concat([frame(FrameType.HEADERS, 0, 1, block.subarray(0, 2)), endHeaders(block.subarray(2), 3)]), ErrorCode.PROTOCOL_ERROR),
  },
  {
    title: '§6.10: CONTINUATION without END_HEADERS followed by DATA → connection error PROTOCOL_ERROR',
    run: afterOpenStream((block) => Buffer.concat([frame(FrameType.HEADERS, 0, 1, block.subarray(0, 2)), frame(FrameType.CONTINUATION, 0, 1, block.subarray(2)), frame(FrameType.DATA, Flag.END_STREAM, 1, RANGE_BODY)]), ErrorCode.PROTOCOL_ERROR),
  },
]);
