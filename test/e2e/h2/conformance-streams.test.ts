/**
 * HTTP/2 server conformance, RFC 9113 §5.1 (stream states), §5.1.1 (stream identifiers),
 * §5.1.2 (concurrency), §5.3.1 (self dependency) and §5.4 (error handling), against a member
 * in every client-port mode.
 */
import assert from 'node:assert/strict';
import { grpcFields, RANGE_BODY } from '../../support/h2-client/grpc.js';
import { ErrorCode, Flag, frame, FrameType, priorityBlock, rstStream, Setting, windowUpdate } from '../../support/h2-client/frames.js';
import { expectAlive, expectConnectionError, expectResponse, expectStreamError } from '../../support/h2-client/outcomes.js';
import { conformanceSuite, validCall } from '../../support/h2-client/suite.js';

/** Above this advertised limit the §5.1.2 check is not attempted (the RFC sets no limit of its own). */
const MAX_STREAMS_TRIED = 2_000;

conformanceSuite('HTTP/2 §5.1–§5.4', [
  {
    title: '§5.1 idle: DATA → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.data(1, RANGE_BODY, true);
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.1 idle: RST_STREAM → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(rstStream(1, ErrorCode.CANCEL));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.1 idle: WINDOW_UPDATE → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(windowUpdate(1, 100));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.1 idle: CONTINUATION → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.CONTINUATION, Flag.END_HEADERS, 1, c.encode(grpcFields(ctx.target))));
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.1 idle: PRIORITY is allowed (the connection goes on)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.PRIORITY, 0, 3, priorityBlock(0)));
      await expectAlive(c);
      await validCall(c, ctx.target, 5);
    },
  },
  {
    title: '§5.1 half-closed (remote): DATA after END_STREAM → STREAM_CLOSED (stream or connection error)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(Buffer.concat([c.headersFrame(1, grpcFields(ctx.target)), frame(FrameType.DATA, Flag.END_STREAM, 1, RANGE_BODY), frame(FrameType.DATA, 0, 1, RANGE_BODY)]));
      await expectStreamError(c, 1, ErrorCode.STREAM_CLOSED);
    },
  },
  {
    title: '§5.1 half-closed (remote): HEADERS after END_STREAM → STREAM_CLOSED (stream or connection error)',
    run: async (ctx) => {
      const c = await ctx.open();
      const fields = grpcFields(ctx.target);
      c.write(Buffer.concat([c.headersFrame(1, fields), frame(FrameType.DATA, Flag.END_STREAM, 1, RANGE_BODY), c.headersFrame(1, [['x-trailer', '1']], { endStream: true })]));
      await expectStreamError(c, 1, ErrorCode.STREAM_CLOSED);
    },
  },
  {
    title: '§5.1 half-closed (remote): WINDOW_UPDATE, PRIORITY and RST_STREAM are allowed',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(Buffer.concat([c.headersFrame(1, grpcFields(ctx.target)), frame(FrameType.DATA, Flag.END_STREAM, 1, RANGE_BODY), windowUpdate(1, 1000), frame(FrameType.PRIORITY, 0, 1, priorityBlock(0))]));
      await expectAlive(c);
      assert.equal(c.received.find((f) => f.type === FrameType.GOAWAY), undefined, c.transcript());
      await validCall(c, ctx.target, 3);
    },
  },
  {
    title: '§5.1 closed: DATA after RST_STREAM → STREAM_CLOSED (stream or connection error)',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(Buffer.concat([c.headersFrame(1, grpcFields(ctx.target)), rstStream(1, ErrorCode.CANCEL), frame(FrameType.DATA, 0, 1, RANGE_BODY)]));
      await expectStreamError(c, 1, ErrorCode.STREAM_CLOSED);
    },
  },
  {
    title: '§5.1 closed: HEADERS after RST_STREAM → STREAM_CLOSED (stream or connection error; PROTOCOL_ERROR under §5.1.1)',
    run: async (ctx) => {
      const c = await ctx.open();
      const fields = grpcFields(ctx.target);
      c.write(Buffer.concat([c.headersFrame(1, fields), rstStream(1, ErrorCode.CANCEL), c.headersFrame(1, fields, { endStream: true })]));
      await expectStreamError(c, 1, [ErrorCode.STREAM_CLOSED, ErrorCode.PROTOCOL_ERROR]);
    },
  },
  {
    title: '§5.1 closed: CONTINUATION after RST_STREAM → STREAM_CLOSED or PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(Buffer.concat([c.headersFrame(1, grpcFields(ctx.target)), rstStream(1, ErrorCode.CANCEL), frame(FrameType.CONTINUATION, Flag.END_HEADERS, 1, c.encode([['x-more', '1']]))]));
      await expectStreamError(c, 1, [ErrorCode.STREAM_CLOSED, ErrorCode.PROTOCOL_ERROR]);
    },
  },
  {
    title: '§5.1 closed: DATA after END_STREAM both ways → STREAM_CLOSED (stream or connection error)',
    run: async (ctx) => {
      const c = await ctx.open();
      await validCall(c, ctx.target, 1);
      c.data(1, RANGE_BODY);
      await expectStreamError(c, 1, ErrorCode.STREAM_CLOSED);
    },
  },
  {
    title: '§5.1 closed: HEADERS after END_STREAM both ways → STREAM_CLOSED (stream or connection error; PROTOCOL_ERROR under §5.1.1)',
    run: async (ctx) => {
      const c = await ctx.open();
      await validCall(c, ctx.target, 1);
      c.headers(1, grpcFields(ctx.target), { endStream: true });
      await expectStreamError(c, 1, [ErrorCode.STREAM_CLOSED, ErrorCode.PROTOCOL_ERROR]);
    },
  },
  {
    title: '§5.1 closed: PRIORITY is allowed on a closed stream',
    run: async (ctx) => {
      const c = await ctx.open();
      await validCall(c, ctx.target, 1);
      c.write(frame(FrameType.PRIORITY, 0, 1, priorityBlock(0)));
      await expectAlive(c);
      await validCall(c, ctx.target, 3);
    },
  },
  {
    title: '§5.1.1: HEADERS on an even stream id → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(2, grpcFields(ctx.target), { endStream: true });
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.1.1: HEADERS on a stream id lower than one already opened → connection error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      await validCall(c, ctx.target, 5);
      c.headers(3, grpcFields(ctx.target), { endStream: true });
      await expectConnectionError(c, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.1.2: a stream over SETTINGS_MAX_CONCURRENT_STREAMS → PROTOCOL_ERROR or REFUSED_STREAM',
    run: async (ctx) => {
      const c = await ctx.open();
      const limit = c.serverSettings.get(Setting.MAX_CONCURRENT_STREAMS);
      if (limit === undefined || limit > MAX_STREAMS_TRIED) return; // no limit the test can reach: nothing to honour
      const fields = grpcFields(ctx.target);
      const opening: Buffer[] = [];
      for (let i = 0; i < limit; i++) opening.push(c.headersFrame(1 + 2 * i, fields));
      c.write(Buffer.concat(opening));
      await expectAlive(c, 10_000);
      const over = 1 + 2 * limit;
      c.headers(over, fields);
      await expectStreamError(c, over, [ErrorCode.PROTOCOL_ERROR, ErrorCode.REFUSED_STREAM]);
      const early = c.received.find((f) => f.type === FrameType.RST_STREAM && f.streamId < over);
      assert.equal(early, undefined, `a stream within the limit was reset:\n  ${c.transcript().split('\n').slice(-5).join('\n')}`);
    },
  },
  {
    title: '§5.3.1: HEADERS depending on its own stream → stream error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target), { priority: priorityBlock(1), endStream: true });
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.3.1: PRIORITY depending on its own stream → stream error PROTOCOL_ERROR',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(frame(FrameType.PRIORITY, 0, 1, priorityBlock(1)));
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
    },
  },
  {
    title: '§5.4.1: after a connection error (a 6-octet PING) the server sends GOAWAY FRAME_SIZE_ERROR or closes, and closes',
    run: async (ctx) => {
      const c = await ctx.open();
      c.write(frame(FrameType.PING, 0, 0, Buffer.alloc(6)));
      await expectConnectionError(c, ErrorCode.FRAME_SIZE_ERROR);
      await c.waitUntil('the connection closed', () => (c.closed ? true : undefined));
    },
  },
  {
    title: '§5.4.2: after a stream error the connection still serves other streams',
    run: async (ctx) => {
      const c = await ctx.open();
      c.headers(1, grpcFields(ctx.target));
      c.write(windowUpdate(1, 0));
      await expectStreamError(c, 1, ErrorCode.PROTOCOL_ERROR);
      if (c.closed || c.received.some((f) => f.type === FrameType.GOAWAY)) return; // treated as a connection error: allowed
      c.headers(3, grpcFields(ctx.target));
      c.data(3, RANGE_BODY, true);
      await expectResponse(c, 3);
    },
  },
]);
