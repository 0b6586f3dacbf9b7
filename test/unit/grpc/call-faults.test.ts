// A fault inside a call's handling costs that call only: the handler that throws (unary,
// streaming, a framed stream that rejects) is answered INTERNAL, reported once to `onFault`,
// and the next call on the same connection is served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Socket } from 'node:net';
import { createHeaderBlockDecoder, type HeaderField } from '../../../server/transport/header-block-codec.js';
import { H2Stream, type StreamSink } from '../../../server/transport/h2/h2-stream.js';
import { h2CallServer } from '../../../server/api/grpc/h2-calls.js';
import type { ServedMethod } from '../../../server/api/grpc/method-table.js';

const decoder = createHeaderBlockDecoder();
const fieldsOf = (block: Buffer): readonly HeaderField[] => {
  const r = decoder.decode(block);
  assert.equal(r.kind, 'ok');
  return r.kind === 'ok' ? r.fields : [];
};
const valueOf = (fields: readonly HeaderField[], name: string): string | undefined => fields.find((f) => f.name === name)?.value;

/** A stream for `path` whose sink keeps the status it is answered with. */
function streamFor(path: string, id: number): { stream: H2Stream; status: () => string | undefined; message: () => string | undefined } {
  let status: string | undefined;
  let message: string | undefined;
  const take = (block: Buffer): void => {
    const f = fieldsOf(block);
    status = valueOf(f, 'grpc-status') ?? status;
    message = valueOf(f, 'grpc-message') ?? message;
  };
  const sink: StreamSink = {
    sendHeaders: (_s, block) => take(block),
    sendData: () => 0,
    sendTrailers: (_s, block) => take(block),
    sendReset: () => undefined,
    consumed: () => undefined,
  };
  const headers: HeaderField[] = [
    { name: ':method', value: 'POST', neverIndex: false },
    { name: ':path', value: path, neverIndex: false },
    { name: 'content-type', value: 'application/grpc', neverIndex: false },
  ];
  return { stream: new H2Stream(id, headers, sink, 65_535, 65_535), status: () => status, message: () => message && decodeURI(message) };
}

const method = (path: string, kind: ServedMethod['kind'], func: ServedMethod['func']): ServedMethod => ({
  kind,
  path,
  func,
  serialize: (v) => Buffer.from(String(v)),
  deserialize: (b) => b.toString(),
});

const EMPTY_MESSAGE = Buffer.from([0, 0, 0, 0, 0]);

void test('a handler that throws is answered INTERNAL and reported once; the next call is served', async () => {
  const faults: Array<{ err: unknown; stream: number }> = [];
  const methods = new Map<string, ServedMethod>([
    ['/t.S/Boom', method('/t.S/Boom', 'unary', (() => { throw new Error('boom'); }) as ServedMethod['func'])],
    ['/t.S/BoomStream', method('/t.S/BoomStream', 'bidi', (() => { throw new Error('bidi boom'); }) as ServedMethod['func'])],
    ['/t.S/Ok', method('/t.S/Ok', 'unary', ((_call: unknown, cb: (e: null, v: string) => void) => cb(null, 'fine')) as unknown as ServedMethod['func'])],
  ]);
  const serve = h2CallServer({ methods, maxRecvBytes: 1024, maxSendBytes: 1024, onFault: (err, stream) => faults.push({ err, stream: stream.id }) }, new Socket());

  const boom = streamFor('/t.S/Boom', 1);
  serve(boom.stream);
  boom.stream.receive(EMPTY_MESSAGE);
  boom.stream.receiveEnd();
  assert.equal(boom.status(), '13');
  assert.equal(boom.message(), 'internal error while handling the call');

  const bidi = streamFor('/t.S/BoomStream', 3);
  serve(bidi.stream);
  assert.equal(bidi.status(), '13');

  const ok = streamFor('/t.S/Ok', 5);
  serve(ok.stream);
  ok.stream.receive(EMPTY_MESSAGE);
  ok.stream.receiveEnd();
  assert.equal(ok.status(), '0');

  assert.deepEqual(faults.map((f) => [f.stream, (f.err as Error).message]), [[1, 'boom'], [3, 'bidi boom']]);
});

void test('a framed server stream that rejects is answered INTERNAL and reported', async () => {
  const faults: unknown[] = [];
  const methods = new Map<string, ServedMethod>([['/t.S/Frames', method('/t.S/Frames', 'serverStream', (() => undefined) as ServedMethod['func'])]]);
  const streams = new Map([['/t.S/Frames', () => Promise.reject(new Error('frames failed'))]]);
  const serve = h2CallServer({ methods, streams, maxRecvBytes: 1024, maxSendBytes: 1024, onFault: (err) => faults.push(err) }, new Socket());
  const s = streamFor('/t.S/Frames', 1);
  serve(s.stream);
  s.stream.receive(EMPTY_MESSAGE);
  s.stream.receiveEnd();
  await new Promise((r) => setImmediate(r));
  assert.equal(s.status(), '13');
  assert.equal(faults.length, 1);
});
