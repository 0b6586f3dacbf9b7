// A bidi call on our own HTTP/2 stream (h2-streaming-call.ts) behaves as the grpc-js duplex call its
// handler was written for: messages cut and delivered in order, pause holds them (and the
// client's window), statuses and texts as grpc-js sends them, cancellation by the client.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { createHeaderBlockDecoder, type HeaderField } from '../../../server/transport/header-block-codec.js';
import { H2Stream, type StreamSink } from '../../../server/transport/h2/h2-stream.js';
import { H2StreamingCall } from '../../../server/api/grpc/h2-streaming-call.js';
import type { ServedMethod } from '../../../server/api/grpc/method-table.js';

type Out =
  | { readonly kind: 'headers'; readonly fields: readonly HeaderField[]; readonly end: boolean }
  | { readonly kind: 'data'; readonly text: string }
  | { readonly kind: 'trailers'; readonly fields: readonly HeaderField[] }
  | { readonly kind: 'reset'; readonly code: number }
  | { readonly kind: 'consumed'; readonly bytes: number };

/** A stream whose sink records what the call sends; `room` decides what `write` returns. */
function recordedStream(headers: readonly HeaderField[] = [{ name: ':path', value: '/t.S/Bidi', neverIndex: false }]): { stream: H2Stream; out: Out[]; room: { left: boolean } } {
  const out: Out[] = [];
  const room = { left: true };
  const decoder = createHeaderBlockDecoder();
  const fields = (block: Buffer): readonly HeaderField[] => {
    const r = decoder.decode(block);
    assert.equal(r.kind, 'ok');
    return r.kind === 'ok' ? r.fields : [];
  };
  const sink: StreamSink = {
    sendHeaders: (_s, block, end) => void out.push({ kind: 'headers', fields: fields(block), end }),
    sendData: (_s, data) => {
      out.push({ kind: 'data', text: data.subarray(5).toString() });
      return room.left ? 0 : data.length;
    },
    sendTrailers: (_s, block) => void out.push({ kind: 'trailers', fields: fields(block) }),
    sendReset: (_s, code) => void out.push({ kind: 'reset', code }),
    consumed: (_s, bytes) => void out.push({ kind: 'consumed', bytes }),
  };
  return { stream: new H2Stream(1, headers, sink, 65_535, 65_535), out, room };
}

/** A handler over text messages; `upper` is refused by its deserializer. */
function handlerOf(func: (call: H2StreamingCall) => void): ServedMethod {
  return {
    kind: 'bidi',
    path: '/t.S/Bidi',
    func: func as unknown as ServedMethod['func'],
    serialize: (v) => Buffer.from(String(v)),
    deserialize: (b) => {
      const text = b.toString();
      if (text === 'bad') throw new Error('does not decode');
      return text;
    },
  };
}

const frame = (text: string, flag = 0): Buffer => {
  const body = Buffer.from(text);
  const f = Buffer.alloc(5 + body.length);
  f[0] = flag;
  f.writeUInt32BE(body.length, 1);
  body.copy(f, 5);
  return f;
};
const statusOf = (fields: readonly HeaderField[]): { code: string | undefined; message: string | undefined } => ({
  code: fields.find((f) => f.name === 'grpc-status')?.value,
  message: ((m) => (m === undefined ? undefined : decodeURIComponent(m)))(fields.find((f) => f.name === 'grpc-message')?.value),
});
const fieldsOf = (o: Out | undefined): readonly HeaderField[] => (o !== undefined && 'fields' in o ? o.fields : []);
const limits = { maxRecvBytes: 64, maxSendBytes: 64 };

void test('messages cut across and within chunks arrive in order, then end; replies go out framed with one header block', () => {
  const { stream, out } = recordedStream();
  const seen: unknown[] = [];
  let ended = false;
  new H2StreamingCall(stream, handlerOf((call) => {
    call.on('data', (m) => {
      seen.push(m);
      call.write(`echo ${String(m)}`);
    });
    call.on('end', () => {
      ended = true;
      call.end();
    });
  }), limits, new Socket()).serve();
  const both = Buffer.concat([frame('one'), frame('two'), frame('three')]);
  stream.receive(both.subarray(0, 3));
  stream.receive(both.subarray(3, 12));
  stream.receive(both.subarray(12));
  assert.deepEqual(seen, ['one', 'two', 'three']);
  assert.equal(ended, false);
  stream.receiveEnd();
  assert.equal(ended, true);
  assert.deepEqual(out.filter((o) => o.kind === 'data').map((o) => (o as { text: string }).text), ['echo one', 'echo two', 'echo three']);
  assert.equal(out.filter((o) => o.kind === 'headers').length, 1);
  const last = out.at(-1)!;
  assert.equal(last.kind, 'trailers');
  assert.deepEqual(statusOf(fieldsOf(last)), { code: '0', message: 'OK' });
  // Every delivered message's bytes were granted back to the client.
  assert.equal(out.filter((o) => o.kind === 'consumed').reduce((n, o) => n + (o as { bytes: number }).bytes, 0), both.length);
});

void test('pause holds messages and their window; resume delivers them, and end waits for them', () => {
  const { stream, out } = recordedStream();
  const seen: unknown[] = [];
  let call!: H2StreamingCall;
  let ended = false;
  new H2StreamingCall(stream, handlerOf((c) => {
    call = c;
    c.on('data', (m) => {
      seen.push(m);
      c.pause();
    });
    c.on('end', () => (ended = true));
  }), limits, new Socket()).serve();
  stream.receive(Buffer.concat([frame('a'), frame('b')]));
  stream.receiveEnd();
  assert.deepEqual(seen, ['a']);
  assert.equal(out.filter((o) => o.kind === 'consumed').length, 1, 'the held message is not granted back yet');
  assert.equal(ended, false);
  call.resume();
  assert.deepEqual(seen, ['a', 'b']);
  call.resume();
  assert.equal(ended, true);
});

void test('a message over the receive limit ends the call with RESOURCE_EXHAUSTED, trailers-only, as grpc-js words it', () => {
  const { stream, out } = recordedStream();
  let closed = 0;
  new H2StreamingCall(stream, handlerOf((c) => c.on('close', () => closed++)), limits, new Socket()).serve();
  stream.receive(frame('x'.repeat(65)).subarray(0, 5));
  assert.equal(out.length, 1);
  const only = out[0]!;
  assert.equal(only.kind, 'headers');
  assert.equal((only as { end: boolean }).end, true);
  assert.deepEqual(statusOf(fieldsOf(only)), { code: '8', message: 'Received message larger than max (65 vs 64)' });
  assert.equal(closed, 1);
});

void test('a compressed message on an identity stream and one that does not deserialize end the call with INTERNAL', () => {
  for (const [bytes, message] of [
    [frame('z', 1), 'Received compressed message but "grpc-encoding" header was identity'],
    [frame('bad'), 'Error deserializing request'],
  ] as const) {
    const { stream, out } = recordedStream();
    new H2StreamingCall(stream, handlerOf(() => undefined), limits, new Socket()).serve();
    stream.receive(bytes);
    assert.deepEqual(statusOf(fieldsOf(out.at(-1))), { code: '13', message });
  }
});

void test("a handler's 'error' event after replies is the trailers; a reply over the send limit is RESOURCE_EXHAUSTED", () => {
  {
    const { stream, out } = recordedStream();
    new H2StreamingCall(stream, handlerOf((c) => {
      c.write('first');
      c.emit('error', { code: 14, details: 'etcdserver: no leader' });
      assert.equal(c.write('late'), false);
    }), limits, new Socket()).serve();
    assert.deepEqual(out.map((o) => o.kind), ['headers', 'data', 'trailers']);
    assert.deepEqual(statusOf(fieldsOf(out[2])), { code: '14', message: 'etcdserver: no leader' });
  }
  {
    const { stream, out } = recordedStream();
    new H2StreamingCall(stream, handlerOf((c) => void c.write('y'.repeat(65))), limits, new Socket()).serve();
    assert.deepEqual(statusOf(fieldsOf(out.at(-1))), { code: '8', message: 'Sent message larger than max (70 vs. 64)' });
  }
});

void test("write reports a full window, 'drain' follows; the client's reset is 'cancelled' then 'close', once", () => {
  const { stream, out, room } = recordedStream();
  const events: string[] = [];
  let call!: H2StreamingCall;
  new H2StreamingCall(stream, handlerOf((c) => {
    call = c;
    for (const e of ['drain', 'cancelled', 'close']) c.on(e, () => events.push(e));
  }), limits, new Socket()).serve();
  room.left = false;
  assert.equal(call.write('w'), false);
  assert.equal(call.writableNeedDrain, true);
  stream.onDrain?.();
  assert.equal(call.writableNeedDrain, false);
  stream.onReset?.(8);
  stream.onReset?.(8);
  assert.deepEqual(events, ['drain', 'cancelled', 'close']);
  assert.equal(call.cancelled, true);
  assert.equal(out.filter((o) => o.kind === 'trailers').length, 0, 'nothing is sent to a client that reset the stream');
});

void test('metadata and the peer come from the request headers and the socket', () => {
  const { stream } = recordedStream([
    { name: ':path', value: '/t.S/Bidi', neverIndex: false },
    { name: 'token', value: 'abc', neverIndex: false },
  ]);
  const socket = Object.create(Socket.prototype, { remoteAddress: { value: '127.0.0.9' }, remotePort: { value: 4242 } }) as Socket;
  let seen: { token: unknown; peer: string; auth: unknown } | undefined;
  new H2StreamingCall(stream, handlerOf((c) => (seen = { token: c.metadata.get('token'), peer: c.getPeer(), auth: c.getAuthContext() })), limits, socket).serve();
  assert.deepEqual(seen, { token: ['abc'], peer: '127.0.0.9:4242', auth: null });
});

void test("a reply is framed by the server's framer for the method when it has one (one buffer, no copy)", () => {
  const { stream, out } = recordedStream();
  const framers = new Map([['/t.S/Bidi', (v: unknown) => frame(`framed ${String(v)}`)]]);
  new H2StreamingCall(stream, handlerOf((c) => void c.write('x')), { ...limits, framers }, new Socket()).serve();
  assert.deepEqual(out.filter((o) => o.kind === 'data'), [{ kind: 'data', text: 'framed x' }]);
});
