/**
 * HTTP/2 server conformance, RFC 9113 §6.9 (WINDOW_UPDATE) and §6.9.1–§6.9.2 (flow-control
 * windows, SETTINGS_INITIAL_WINDOW_SIZE applied to open streams, negative windows): the reply
 * of a Range (one DATA frame of some 30 octets) must respect the windows we grant, down to one
 * octet. Against a member in every client-port mode.
 */
import assert from 'node:assert/strict';
import type { H2Client } from '../../support/h2-client/connection.js';
import { grpcFields, RANGE_BODY } from '../../support/h2-client/grpc.js';
import { ErrorCode, frame, FrameType, Setting, settingsFrame, windowUpdate } from '../../support/h2-client/frames.js';
import { expectAlive, expectConnectionError, expectResponse, expectStreamError } from '../../support/h2-client/outcomes.js';
import { conformanceSuite } from '../../support/h2-client/suite.js';

const MAX_WINDOW = 0x7fff_ffff;

/** DATA octets (padding included: it counts against the window) received on `stream`. */
function dataOctets(c: H2Client, stream: number): number {
  return c.onStream(stream).filter((f) => f.type === FrameType.DATA).reduce((n, f) => n + f.payload.length, 0);
}

/** Waits until `stream` has received at least `octets` DATA octets. */
function untilData(c: H2Client, stream: number, octets: number): Promise<true> {
  return c.waitUntil(`${octets} DATA octets on stream ${stream}`, () => {
    if (c.closed) assert.fail(`connection closed:\n  ${c.transcript()}`);
    return dataOctets(c, stream) >= octets ? true : undefined;
  });
}

/** Sends the Range call on stream 1 (its request body fits the server's default window). */
function sendCall(c: H2Client, target: Parameters<typeof grpcFields>[0]): void {
  c.headers(1, grpcFields(target));
  c.data(1, RANGE_BODY, true);
}

conformanceSuite('HTTP/2 §6.9 flow control', [
  {
    title: '§6.9: WINDOW_UPDATE of 0 on the connection → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(windowUpdate(0, 0));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.9: WINDOW_UPDATE of 0 on a stream → stream error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(windowUpdate(1, 0));
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§6.9: WINDOW_UPDATE of 3 octets → connection error FRAME_SIZE_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.WINDOW_UPDATE, 0, 0, Buffer.from([0, 0, 1])));
      await expectConnectionError(c, ErrorCode.FRAME_SIZE_ERROR);
    },
  },
  {
    title: '§6.9.1: the connection window over 2^31-1 → connection error FLOW_CONTROL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(Buffer.concat([windowUpdate(0, MAX_WINDOW), windowUpdate(0, MAX_WINDOW)]));
      await expectConnectionError(c, ErrorCode.FLOW_CONTROL_ERROR);
    },
  },
  {
    title: '§6.9.1: a stream window over 2^31-1 → stream error FLOW_CONTROL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(Buffer.concat([windowUpdate(1, MAX_WINDOW), windowUpdate(1, MAX_WINDOW)]));
      await expectStreamError(c, 1, ErrorCode.FLOW_CONTROL_ERROR);
    },
  },
  {
    title: '§6.9.1: with SETTINGS_INITIAL_WINDOW_SIZE = 1 the reply comes one octet per grant',
    run: async (ctx) => {
      const c = await ctx.open({ settings: [[Setting.INITIAL_WINDOW_SIZE, 1]] });
      sendCall(c, ctx.target);
      let granted = 1;
      for (;;) {
        const done = await c.waitUntil('a DATA octet or the end of stream 1', () => {
          if (c.closed) assert.fail(`connection closed:\n  ${c.transcript()}`);
          const ended = c.onStream(1).some((f) => f.type === FrameType.HEADERS && (f.flags & 0x1) !== 0);
          if (ended) return 'ended';
          return dataOctets(c, 1) >= granted ? 'more' : undefined;
        }, 5_000);
        const big = c.onStream(1).find((f) => f.type === FrameType.DATA && f.payload.length > 1);
        assert.equal(big, undefined, `a DATA frame over the 1-octet window:\n  ${c.transcript()}`);
        assert.ok(dataOctets(c, 1) <= granted, `${dataOctets(c, 1)} octets sent for ${granted} granted`);
        if (done === 'ended') break;
        assert.ok(granted < 1000, 'the reply did not end');
        granted += 1;
        c.write(windowUpdate(1, 1));
      }
      const answer = await expectResponse(c, 1);
      assert.ok(answer.data.length > 5, 'a reply message');
    },
  },
  {
    title: '§6.9.2: SETTINGS_INITIAL_WINDOW_SIZE raised from 0 to 1 while the stream is open → one octet of DATA',
    run: async (ctx) => {
      const c = await ctx.open({ settings: [[Setting.INITIAL_WINDOW_SIZE, 0]] });
      sendCall(c, ctx.target);
      await c.waitUntil('the reply head on stream 1', () => (c.onStream(1).some((f) => f.type === FrameType.HEADERS) ? true : undefined)).catch(() => undefined);
      await expectAlive(c);
      assert.equal(dataOctets(c, 1), 0, `DATA sent into a 0 window:\n  ${c.transcript()}`);
      c.write(settingsFrame([[Setting.INITIAL_WINDOW_SIZE, 1]]));
      await untilData(c, 1, 1);
      await expectAlive(c);
      assert.equal(dataOctets(c, 1), 1, `more DATA than the 1-octet window:\n  ${c.transcript()}`);
      c.write(windowUpdate(1, 1 << 20));
      await expectResponse(c, 1);
    },
  },
  {
    title: '§6.9.2: SETTINGS_INITIAL_WINDOW_SIZE lowered below what was sent → a negative window, honoured',
    run: async (ctx) => {
      const c = await ctx.open({ settings: [[Setting.INITIAL_WINDOW_SIZE, 3]] });
      sendCall(c, ctx.target);
      await untilData(c, 1, 3);
      await expectAlive(c);
      assert.equal(dataOctets(c, 1), 3, `more DATA than the 3-octet window:\n  ${c.transcript()}`);
      c.write(settingsFrame([[Setting.INITIAL_WINDOW_SIZE, 2]])); // window 3 - 3 - 1 = -1
      c.write(windowUpdate(1, 2)); // window 1
      await untilData(c, 1, 4);
      await expectAlive(c);
      assert.equal(dataOctets(c, 1), 4, `a window of -1 + 2 allows 1 octet:\n  ${c.transcript()}`);
      c.write(windowUpdate(1, 1 << 20));
      await expectResponse(c, 1);
    },
  },
  {
    title: '§6.9.2: SETTINGS_INITIAL_WINDOW_SIZE that pushes an open stream over 2^31-1 → connection error FLOW_CONTROL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(windowUpdate(1, MAX_WINDOW - 65_535));
      await expectAlive(c);
      c.write(settingsFrame([[Setting.INITIAL_WINDOW_SIZE, 65_536]]));
      await expectConnectionError(c, ErrorCode.FLOW_CONTROL_ERROR);
    },
  },
  {
    title: '§6.9.2: SETTINGS_INITIAL_WINDOW_SIZE over 2^31-1 → connection error FLOW_CONTROL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(settingsFrame([[Setting.INITIAL_WINDOW_SIZE, 0xffff_ffff]]));
      await expectConnectionError(c, ErrorCode.FLOW_CONTROL_ERROR);
    },
  },
]);
