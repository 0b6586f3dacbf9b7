/**
 * What RFC 9113 requires of a server, one test per rule (server/transport/README.md, "What the
 * connection enforces"): raw frames in, the exact RST_STREAM / GOAWAY codes out. Request header
 * rules (§8.2, §8.3), content-length (§8.1.1), stream states (§5.1, §5.1.1), frame rules (§4,
 * §6), and the order of callbacks when a client resets a stream at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FrameFlag, FrameType, H2Error } from '../../../server/transport/http2-frames.js';
import { frame, type Fields } from './h2-test-frames.js';
import { decodeAll, GET, goAwayCode, goAwayLastStream, priority, rawPeer, resetCode, u32 } from './h2-raw-peer.js';

const END_STREAM = FrameFlag.EndStream;
const POST: Fields = [
  [':method', 'POST'],
  [':scheme', 'http'],
  [':path', '/svc/M'],
];
const data = (id: number, bytes: number | string, flags = 0): Buffer => frame(FrameType.Data, flags, id, typeof bytes === 'string' ? bytes : Buffer.alloc(bytes));
const settings = (...pairs: [number, number][]): Buffer => {
  const b = Buffer.alloc(6 * pairs.length);
  pairs.forEach(([k, v], i) => {
    b.writeUInt16BE(k, 6 * i);
    b.writeUInt32BE(v >>> 0, 6 * i + 2);
  });
  return frame(FrameType.Settings, 0, 0, b);
};

/** Sends `frames` on a fresh connection; answers the GOAWAY code written back. */
async function connectionErrorOf(...frames: ((p: ReturnType<typeof rawPeer>) => Buffer)[]): Promise<number | undefined> {
  const p = rawPeer();
  p.send(...frames.map((f) => f(p)));
  const out = await p.answer();
  assert.ok(p.ended, 'the connection is closed after GOAWAY');
  return goAwayCode(out);
}

// ---- 1. request header rules: stream error PROTOCOL_ERROR, never onStream ----

const malformed: [string, Fields][] = [
  ['an upper-case field name', [...GET, ['X-Tag', 'a']]],
  ['a pseudo-header after a regular field', [[':method', 'GET'], [':scheme', 'http'], ['x-a', '1'], [':path', '/']]],
  ['an unknown pseudo-header', [...GET, [':foo', 'x']]],
  ['a response pseudo-header', [...GET, [':status', '200']]],
  [':method twice', [...GET.slice(0, 1), ...GET]],
  [':scheme twice', [[':scheme', 'https'], ...GET]],
  [':path twice', [[':path', '/a'], ...GET]],
  [':authority twice', [[':authority', 'b'], ...GET]],
  ['no :method', GET.filter(([n]) => n !== ':method')],
  ['no :scheme', GET.filter(([n]) => n !== ':scheme')],
  ['no :path', GET.filter(([n]) => n !== ':path')],
  ['an empty :path', [[':method', 'GET'], [':scheme', 'http'], [':path', '']]],
  ['connection', [...GET, ['connection', 'close']]],
  ['keep-alive', [...GET, ['keep-alive', '5']]],
  ['proxy-connection', [...GET, ['proxy-connection', 'x']]],
  ['transfer-encoding', [...GET, ['transfer-encoding', 'chunked']]],
  ['upgrade', [...GET, ['upgrade', 'h2c']]],
  ['te other than trailers', [...GET, ['te', 'gzip']]],
  ['NUL in a value', [...GET, ['x-a', 'a\0b']]],
  ['CR in a value', [...GET, ['x-a', 'a\rb']]],
  ['LF in a value', [...GET, ['x-a', 'a\nb']]],
  ['a leading space in a value', [...GET, ['x-a', ' a']]],
  ['a trailing tab in a value', [...GET, ['x-a', 'a\t']]],
  ['a space in a name', [...GET, ['x a', '1']]],
  ['a colon inside a name', [...GET, ['x:a', '1']]],
  ['an empty name', [...GET, ['', '1']]],
  ['a non-ASCII name', [...GET, ['x\u00e9', '1']]],
  ['CONNECT with :path', [[':method', 'CONNECT'], [':authority', 'h:1'], [':path', '/']]],
  ['CONNECT without :authority', [[':method', 'CONNECT']]],
  ['content-length not a number', [...POST, ['content-length', '1e3']]],
];
for (const [what, fields] of malformed) {
  void test(`request with ${what}: RST_STREAM PROTOCOL_ERROR, the stream never reaches onStream`, async () => {
    const p = rawPeer();
    p.send(p.headers(1, fields, END_STREAM), p.headers(3, GET, END_STREAM));
    const out = await p.answer();
    assert.equal(resetCode(out, 1), H2Error.ProtocolError);
    assert.deepEqual(p.streams.map((s) => s.id), [3], 'only the well-formed request is served');
    assert.equal(goAwayCode(out), undefined);
  });
}

void test('te: trailers and a well-formed request reach onStream with their fields', async () => {
  const p = rawPeer();
  p.send(p.headers(1, [...POST, [':authority', 'h'], ['te', 'trailers'], ['content-type', 'application/grpc']], END_STREAM));
  await p.answer();
  assert.equal(p.streams.length, 1);
  assert.equal(p.streams[0]!.header('te'), 'trailers');
});

void test('a well-formed CONNECT is answered 501 without reaching onStream (no tunnels)', async () => {
  const p = rawPeer();
  p.send(p.headers(1, [[':method', 'CONNECT'], [':authority', 'h:443']]));
  const out = await p.answer();
  const h = out.find((f) => f.type === FrameType.Headers && f.streamId === 1);
  assert.ok(h !== undefined && (h.flags & END_STREAM) !== 0);
  assert.deepEqual(decodeAll(h.payload), [[':status', '501']]);
  assert.equal(resetCode(out, 1), H2Error.NoError, 'the rest of the request is declined');
  assert.equal(p.streams.length, 0);
});

void test('pseudo-headers in trailers: RST_STREAM PROTOCOL_ERROR, onReset sees it', async () => {
  const codes: number[] = [];
  const p = rawPeer({}, (s) => (s.onReset = (c) => codes.push(c)));
  p.send(p.headers(1, POST), p.headers(1, [[':path', '/x']], END_STREAM));
  const out = await p.answer();
  assert.equal(resetCode(out, 1), H2Error.ProtocolError);
  assert.deepEqual(codes, [H2Error.ProtocolError]);
});

void test('trailers without END_STREAM: connection error PROTOCOL_ERROR', async () => {
  const p = rawPeer();
  p.send(p.headers(1, POST), p.headers(1, [['x-t', '1']]));
  assert.equal(goAwayCode(await p.answer()), H2Error.ProtocolError);
});

void test('trailers with END_STREAM end the request (onEnd)', async () => {
  let ended = false;
  const p = rawPeer({}, (s) => {
    s.onData = () => undefined;
    s.onEnd = () => (ended = true);
  });
  p.send(p.headers(1, POST), data(1, 3), p.headers(1, [['x-t', '1']], END_STREAM));
  const out = await p.answer();
  assert.ok(ended);
  assert.equal(resetCode(out, 1), undefined);
});

// ---- 2. content-length ----

for (const [what, frames] of [
  ['more DATA than content-length', [data(1, 4), data(1, 4, END_STREAM)]],
  ['less DATA than content-length', [data(1, 2, END_STREAM)]],
] as const) {
  void test(`${what}: RST_STREAM PROTOCOL_ERROR`, async () => {
    const p = rawPeer();
    p.send(p.headers(1, [...POST, ['content-length', '5']]), ...frames);
    assert.equal(resetCode(await p.answer(), 1), H2Error.ProtocolError);
  });
}

void test('content-length with END_STREAM on HEADERS: refused before onStream; an exact one is served', async () => {
  const p = rawPeer();
  p.send(p.headers(1, [...POST, ['content-length', '5']], END_STREAM), p.headers(3, [...POST, ['content-length', '5']]), data(3, 5, END_STREAM));
  const out = await p.answer();
  assert.equal(resetCode(out, 1), H2Error.ProtocolError);
  assert.equal(resetCode(out, 3), undefined);
  assert.deepEqual(p.streams.map((s) => s.id), [3]);
});

// ---- 3. stream states ----

void test('DATA on an idle stream: connection error PROTOCOL_ERROR', async () => {
  assert.equal(await connectionErrorOf(() => data(1, 1)), H2Error.ProtocolError);
});

void test('DATA and HEADERS on a half-closed (remote) stream: RST_STREAM STREAM_CLOSED', async () => {
  for (const late of [(): Buffer => data(1, 1), (p: ReturnType<typeof rawPeer>): Buffer => p.headers(1, [['x', '1']], END_STREAM)]) {
    const codes: number[] = [];
    const p = rawPeer({}, (s) => (s.onReset = (c) => codes.push(c)));
    p.send(p.headers(1, GET, END_STREAM), late(p));
    const out = await p.answer();
    assert.equal(resetCode(out, 1), H2Error.StreamClosed);
    assert.deepEqual(codes, [H2Error.StreamClosed]);
    assert.equal(goAwayCode(out), undefined);
  }
});

void test('DATA on a closed stream (both ends ended, or reset by the client): RST_STREAM STREAM_CLOSED', async () => {
  const p = rawPeer({}, (s) => {
    if (s.id === 1) s.respond(p.block([[':status', '200']]), true);
  });
  p.send(p.headers(1, GET, END_STREAM), data(1, 1));
  p.send(p.headers(3, POST), frame(FrameType.RstStream, 0, 3, u32(H2Error.Cancel)), data(3, 1));
  const out = await p.answer();
  assert.equal(resetCode(out, 1), H2Error.StreamClosed);
  assert.equal(resetCode(out, 3), H2Error.StreamClosed);
  assert.equal(goAwayCode(out), undefined);
});

void test('DATA and trailers on a stream we reset are ignored (they may have left before our RST_STREAM)', async () => {
  const p = rawPeer({}, (s) => s.reset(H2Error.Cancel));
  p.send(p.headers(1, POST), data(1, 10), p.headers(1, [['x-t', '1']], END_STREAM));
  const out = await p.answer();
  assert.deepEqual(out.map((f) => [f.type, f.streamId]), [[FrameType.RstStream, 1]]);
});

void test('HEADERS on a closed stream: connection error STREAM_CLOSED', async () => {
  const p = rawPeer({}, (s) => s.respond(p.block([[':status', '200']]), true));
  p.send(p.headers(1, GET, END_STREAM), p.headers(1, GET, END_STREAM));
  const out = await p.answer();
  assert.equal(goAwayCode(out), H2Error.StreamClosed);
  assert.equal(goAwayLastStream(out), 1);
});

void test('a stream id lower than one opened, never used: connection error PROTOCOL_ERROR', async () => {
  const p = rawPeer();
  p.send(p.headers(5, GET, END_STREAM), p.headers(3, GET, END_STREAM));
  const out = await p.answer();
  assert.equal(goAwayCode(out), H2Error.ProtocolError);
  assert.equal(goAwayLastStream(out), 5);
});

void test('WINDOW_UPDATE or RST_STREAM on an idle stream: connection error PROTOCOL_ERROR', async () => {
  assert.equal(await connectionErrorOf(() => frame(FrameType.WindowUpdate, 0, 1, u32(10))), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf(() => frame(FrameType.RstStream, 0, 1, u32(8))), H2Error.ProtocolError);
});

void test('CONTINUATION without HEADERS, on another stream, or after END_HEADERS: connection error PROTOCOL_ERROR', async () => {
  const cont = (id: number, flags = FrameFlag.EndHeaders): Buffer => frame(FrameType.Continuation, flags, id, Buffer.alloc(0));
  assert.equal(await connectionErrorOf(() => cont(1)), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf((p) => frame(FrameType.Headers, 0, 1, p.block(GET)), () => cont(3)), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf((p) => p.headers(1, GET), () => cont(1)), H2Error.ProtocolError);
});

void test('any other frame between HEADERS and its CONTINUATION (PRIORITY, PING, an unknown type): connection error PROTOCOL_ERROR', async () => {
  for (const between of [frame(FrameType.Priority, 0, 1, priority(0)), frame(FrameType.Ping, 0, 0, Buffer.alloc(8)), frame(0xfa, 0, 0, 'x')]) {
    const block = (p: ReturnType<typeof rawPeer>): Buffer => p.block(GET);
    assert.equal(
      await connectionErrorOf(
        (p) => frame(FrameType.Headers, END_STREAM, 1, block(p).subarray(0, 2)),
        () => between,
        () => frame(FrameType.Continuation, FrameFlag.EndHeaders, 1, Buffer.alloc(0)),
      ),
      H2Error.ProtocolError,
    );
  }
});

void test('a stream depending on itself: RST_STREAM PROTOCOL_ERROR (HEADERS with PRIORITY, or PRIORITY); on an idle stream a connection error', async () => {
  const p = rawPeer();
  p.send(frame(FrameType.Headers, FrameFlag.EndHeaders | FrameFlag.Priority | END_STREAM, 1, Buffer.concat([priority(1), p.block(GET)])));
  p.send(p.headers(3, POST), frame(FrameType.Priority, 0, 3, priority(3)));
  const out = await p.answer();
  assert.equal(resetCode(out, 1), H2Error.ProtocolError);
  assert.equal(resetCode(out, 3), H2Error.ProtocolError);
  assert.deepEqual(p.streams.map((s) => s.id), [3]);
  assert.equal(await connectionErrorOf(() => frame(FrameType.Priority, 0, 7, priority(7))), H2Error.ProtocolError);
});

void test('PRIORITY on an idle stream, with another dependency, is accepted and changes nothing', async () => {
  const p = rawPeer();
  p.send(frame(FrameType.Priority, 0, 9, priority(0)), p.headers(1, GET, END_STREAM));
  const out = await p.answer();
  assert.equal(goAwayCode(out), undefined);
  assert.deepEqual(p.streams.map((s) => s.id), [1]);
});

// ---- 4. frames ----

void test('padding longer than the payload (DATA, HEADERS): connection error PROTOCOL_ERROR', async () => {
  assert.equal(await connectionErrorOf((p) => p.headers(1, POST), () => frame(FrameType.Data, FrameFlag.Padded, 1, Buffer.from([5, 1, 2]))), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf((p) => frame(FrameType.Headers, FrameFlag.EndHeaders | FrameFlag.Padded, 1, Buffer.concat([Buffer.from([200]), p.block(GET)]))), H2Error.ProtocolError);
});

void test('a frame over our SETTINGS_MAX_FRAME_SIZE (16 384): FRAME_SIZE_ERROR', async () => {
  assert.equal(await connectionErrorOf((p) => p.headers(1, POST), () => data(1, 16_385)), H2Error.FrameSizeError);
});

void test('PRIORITY of the wrong length on an open stream: RST_STREAM FRAME_SIZE_ERROR', async () => {
  const p = rawPeer();
  p.send(p.headers(1, POST), frame(FrameType.Priority, 0, 1, Buffer.alloc(4)));
  const out = await p.answer();
  assert.equal(resetCode(out, 1), H2Error.FrameSizeError);
  assert.equal(goAwayCode(out), undefined);
});

void test('RST_STREAM, PING, WINDOW_UPDATE, SETTINGS, SETTINGS ACK, GOAWAY of the wrong length: FRAME_SIZE_ERROR', async () => {
  const cases: ((p: ReturnType<typeof rawPeer>) => Buffer)[] = [
    () => frame(FrameType.RstStream, 0, 1, Buffer.alloc(3)),
    () => frame(FrameType.Ping, 0, 0, Buffer.alloc(7)),
    () => frame(FrameType.WindowUpdate, 0, 0, Buffer.alloc(3)),
    () => frame(FrameType.Settings, 0, 0, Buffer.alloc(5)),
    () => frame(FrameType.Settings, FrameFlag.Ack, 0, Buffer.alloc(6)),
    () => frame(FrameType.GoAway, 0, 0, Buffer.alloc(7)),
  ];
  for (const c of cases) assert.equal(await connectionErrorOf((p) => p.headers(1, POST), c), H2Error.FrameSizeError);
});

void test('SETTINGS values out of range: ENABLE_PUSH 2 and MAX_FRAME_SIZE PROTOCOL_ERROR, INITIAL_WINDOW_SIZE FLOW_CONTROL_ERROR', async () => {
  assert.equal(await connectionErrorOf(() => settings([2, 2])), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf(() => settings([5, 16_383])), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf(() => settings([5, 1 << 24])), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf(() => settings([4, 2 ** 31])), H2Error.FlowControlError);
});

void test('unknown settings and unknown frame types are ignored', async () => {
  const p = rawPeer();
  p.send(settings([0x99, 7]), frame(0xfa, 0, 0, 'anything'), frame(0xfb, 0xff, 1, ''), frame(FrameType.Ping, 0, 0, Buffer.alloc(8, 1)));
  const out = await p.answer();
  assert.equal(goAwayCode(out), undefined);
  assert.ok(out.some((f) => f.type === FrameType.Settings && f.flags === FrameFlag.Ack));
  assert.ok(out.some((f) => f.type === FrameType.Ping && f.flags === FrameFlag.Ack));
});

void test('flow-control windows over 2^31-1: connection FLOW_CONTROL_ERROR; a stream: RST_STREAM FLOW_CONTROL_ERROR', async () => {
  assert.equal(await connectionErrorOf(() => frame(FrameType.WindowUpdate, 0, 0, u32(0x7fff_ffff))), H2Error.FlowControlError);
  const p = rawPeer();
  p.send(p.headers(1, POST), frame(FrameType.WindowUpdate, 0, 1, u32(0x7fff_ffff)));
  const out = await p.answer();
  assert.equal(resetCode(out, 1), H2Error.FlowControlError);
  assert.equal(goAwayCode(out), undefined);
});

void test('WINDOW_UPDATE of 0: on a stream RST_STREAM PROTOCOL_ERROR, on the connection PROTOCOL_ERROR', async () => {
  const p = rawPeer();
  p.send(p.headers(1, POST), frame(FrameType.WindowUpdate, 0, 1, u32(0)));
  const out = await p.answer();
  assert.equal(resetCode(out, 1), H2Error.ProtocolError);
  assert.equal(goAwayCode(out), undefined);
  assert.equal(await connectionErrorOf(() => frame(FrameType.WindowUpdate, 0, 0, u32(0))), H2Error.ProtocolError);
});

void test('DATA beyond our windows: the stream RST_STREAM FLOW_CONTROL_ERROR, the connection FLOW_CONTROL_ERROR', async () => {
  const p = rawPeer({ streamWindow: 100 });
  p.send(p.headers(1, POST), data(1, 101));
  assert.equal(resetCode(await p.answer(), 1), H2Error.FlowControlError);
  const q = rawPeer({ connectionWindow: 65_535, streamWindow: 1 << 20 });
  q.send(q.headers(1, POST), ...Array.from({ length: 4 }, () => data(1, 16_384)));
  assert.equal(goAwayCode(await q.answer()), H2Error.FlowControlError);
});

void test('GOAWAY, SETTINGS or PING on a stream, and PUSH_PROMISE from a client: connection error PROTOCOL_ERROR', async () => {
  assert.equal(await connectionErrorOf((p) => p.headers(1, POST), () => frame(FrameType.GoAway, 0, 1, Buffer.alloc(8))), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf((p) => p.headers(1, POST), () => frame(FrameType.Settings, 0, 1)), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf((p) => p.headers(1, POST), () => frame(FrameType.Ping, 0, 1, Buffer.alloc(8))), H2Error.ProtocolError);
  assert.equal(await connectionErrorOf((p) => p.headers(1, POST), () => frame(FrameType.PushPromise, FrameFlag.EndHeaders, 1, u32(2))), H2Error.ProtocolError);
});

void test('unknown error codes: RST_STREAM reaches onReset as is; GOAWAY is accepted (the connection ends once idle)', async () => {
  const codes: number[] = [];
  const p = rawPeer({}, (s) => (s.onReset = (c) => codes.push(c)));
  p.send(p.headers(1, POST), frame(FrameType.RstStream, 0, 1, u32(0xdead)));
  p.send(frame(FrameType.GoAway, 0, 0, Buffer.concat([u32(0, 0xbeef)])));
  const out = await p.answer();
  assert.deepEqual(codes, [0xdead]);
  assert.equal(goAwayCode(out), undefined);
  assert.ok(p.ended);
});

// ---- 7, 8. the layer above: faults, and a reset in the same packet ----

void test('a throw in onStream, onData, onEnd or onDrain: RST_STREAM INTERNAL_ERROR, reported once, the connection goes on', async () => {
  const faults: [unknown, object][] = [];
  const p = rawPeer({}, (s) => {
    if (s.id === 1) throw new Error('onStream bug');
    if (s.id === 3) s.onData = () => {
      throw new Error('onData bug');
    };
    if (s.id === 5) s.onEnd = () => {
      throw new Error('onEnd bug');
    };
    if (s.id === 7) {
      s.onReset = () => {
        throw new Error('onReset after a fault: not reported again');
      };
      s.respond(p.block([[':status', '200']]));
      s.onDrain = () => {
        throw new Error('onDrain bug');
      };
      s.write(Buffer.alloc(70_000)); // past the client's 65 535-byte window: waits
    }
  });
  p.conn.onStreamFault = (err, info) => faults.push([(err as Error).message, info]);
  p.send(p.headers(1, POST), p.headers(3, POST), data(3, 2), p.headers(5, POST, END_STREAM), p.headers(7, GET, END_STREAM));
  p.send(frame(FrameType.WindowUpdate, 0, 0, u32(10_000)), frame(FrameType.WindowUpdate, 0, 7, u32(10_000)));
  p.send(p.headers(9, GET, END_STREAM));
  const out = await p.answer();
  for (const id of [1, 3, 5, 7]) assert.equal(resetCode(out, id), H2Error.InternalError, `stream ${id}`);
  assert.deepEqual(faults, [
    ['onStream bug', { streamId: 1, method: 'POST', path: '/svc/M' }],
    ['onData bug', { streamId: 3, method: 'POST', path: '/svc/M' }],
    ['onEnd bug', { streamId: 5, method: 'POST', path: '/svc/M' }],
    ['onDrain bug', { streamId: 7, method: 'GET', path: '/' }],
  ]);
  assert.equal(goAwayCode(out), undefined);
  assert.deepEqual(p.streams.map((s) => s.id), [1, 3, 5, 7, 9]);
});

void test("a throw in onReset (the client's RST_STREAM) is reported and goes no further", async () => {
  const faults: unknown[] = [];
  const p = rawPeer({}, (s) => {
    s.onReset = () => {
      throw new Error('onReset bug');
    };
  });
  p.conn.onStreamFault = (err) => faults.push(err);
  p.send(p.headers(1, POST), frame(FrameType.RstStream, 0, 1, u32(8)), p.headers(3, GET, END_STREAM));
  const out = await p.answer();
  assert.equal(faults.length, 1);
  assert.equal(resetCode(out, 1), undefined, 'no RST_STREAM on a stream already closed');
  assert.equal(goAwayCode(out), undefined);
});

void test('a fault of the connection itself while reading: GOAWAY INTERNAL_ERROR through onError, nothing thrown', async () => {
  let broken = false;
  const p = rawPeer({
    now: () => {
      if (broken) throw new Error('clock broke');
      return 0;
    },
  });
  broken = true;
  const errors: Error[] = [];
  p.conn.onError = (e) => errors.push(e);
  p.send(frame(FrameType.Ping, 0, 0, Buffer.alloc(8)));
  assert.equal(goAwayCode(await p.answer()), H2Error.InternalError);
  assert.equal(errors.length, 1);
});

void test('HEADERS and RST_STREAM in one packet: onStream sees the stream, then onReset once; every later call is a no-op', async () => {
  const events: string[] = [];
  const p = rawPeer({}, (s) => {
    events.push('stream');
    s.onReset = (c) => events.push(`reset ${c}`);
    s.onData = () => events.push('data');
  });
  p.send(p.headers(1, POST), data(1, 3), frame(FrameType.RstStream, 0, 1, u32(H2Error.Cancel)), frame(FrameType.RstStream, 0, 1, u32(H2Error.Cancel)));
  const s = p.streams[0]!;
  assert.deepEqual(events, ['stream', 'data', `reset ${H2Error.Cancel}`]);
  s.respond(p.block([[':status', '200']]));
  assert.equal(s.write(Buffer.from('late')), false);
  s.end(p.block([['grpc-status', '0']]));
  s.reset();
  s.consumed(10);
  const out = await p.answer();
  assert.deepEqual(out.filter((f) => f.streamId === 1), [], 'nothing sent on the reset stream');
  assert.equal(goAwayCode(out), undefined);
});

void test('a stream reset before onStream could answer, when the handler answers later: nothing sent, nothing thrown', async () => {
  const p = rawPeer();
  p.send(Buffer.concat([p.headers(1, GET, END_STREAM), frame(FrameType.RstStream, 0, 1, u32(H2Error.Cancel))]));
  const s = p.streams[0]!;
  assert.ok(s.closed);
  s.respond(p.block([[':status', '200']]), true);
  const out = await p.answer();
  assert.deepEqual(out.filter((f) => f.streamId === 1), []);
});
