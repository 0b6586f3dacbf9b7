/**
 * A raw HTTP/2 client that behaves like Go gRPC (it waits for the server's SETTINGS before its
 * first request) calls grpc.health.v1.Health/Check on the shared client port, with an
 * `:authority` of `http://127.0.0.1:<port>` (refused by Node's HTTP/2 layer: served through the
 * relay) or `127.0.0.1:<port>` (handed over plain). Two requests per connection, so the relay's
 * HPACK context is exercised across blocks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import pino from 'pino';
import {
  HealthCheckResponse_ServingStatus, HealthService, type HealthCheckRequest, type HealthCheckResponse,
} from '../../../proto/gen/etcd/health.js';
import { listenClient } from '../../../server/transport/client-listener.js';
import { createHeaderBlockDecoder } from '../../../server/transport/header-block-codec.js';
import { FrameFlag, FrameType } from '../../../server/transport/http2-frames.js';
import { HTTP2_PREFACE } from '../../../server/transport/protocol-sniff.js';
import { clientEncoder, frame, requestFields, splitFrames, type Frame } from './h2-test-frames.js';

function healthServer(): grpc.Server {
  const server = new grpc.Server();
  server.addService(HealthService, {
    check: (_call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, cb: grpc.sendUnaryData<HealthCheckResponse>) =>
      cb(null, { status: HealthCheckResponse_ServingStatus.SERVING }),
    watch: (call: grpc.ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => call.end(),
  });
  return server;
}

/** Reads whole frames off a socket. */
function frameReader(socket: Socket): () => Promise<Frame> {
  let buffered = Buffer.alloc(0);
  const ready: Frame[] = [];
  let wake: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    let end = 0;
    while (buffered.length - end >= 9 && buffered.length - end >= 9 + buffered.readUIntBE(end, 3)) end += 9 + buffered.readUIntBE(end, 3);
    ready.push(...splitFrames(buffered.subarray(0, end)));
    buffered = buffered.subarray(end);
    wake?.();
  });
  socket.on('close', () => wake?.());
  return async () => {
    while (ready.length === 0) {
      if (socket.closed) throw new Error('connection closed');
      await new Promise<void>((resolve) => (wake = resolve));
    }
    return ready.shift() as Frame;
  };
}

/** Two unary Health/Check calls on one connection; returns each call's grpc-status. */
async function goLikeClient(port: number, authority: string): Promise<string[]> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const next = frameReader(socket);
  const encode = clientEncoder();
  const decoder = createHeaderBlockDecoder();
  try {
    socket.write(Buffer.concat([HTTP2_PREFACE, frame(FrameType.Settings, 0, 0)]));
    const statuses: string[] = [];
    let first = true;
    for (const streamId of [1, 3]) {
      let status: string | undefined;
      // Go gRPC sends nothing before the server's first SETTINGS.
      while (first) {
        const f = await next();
        if (f.type === FrameType.Settings && (f.flags & FrameFlag.Ack) === 0) {
          socket.write(frame(FrameType.Settings, FrameFlag.Ack, 0));
          first = false;
        }
      }
      socket.write(Buffer.concat([
        frame(FrameType.Headers, FrameFlag.EndHeaders, streamId, encode(requestFields(authority, '/grpc.health.v1.Health/Check'))),
        frame(FrameType.Data, FrameFlag.EndStream, streamId, Buffer.alloc(5)),
      ]));
      while (status === undefined) {
        const f = await next();
        if (f.type === FrameType.Settings && (f.flags & FrameFlag.Ack) === 0) socket.write(frame(FrameType.Settings, FrameFlag.Ack, 0));
        if (f.type === FrameType.RstStream && f.streamId === streamId) status = `RST_STREAM ${f.payload.readUInt32BE(0)}`;
        if (f.type !== FrameType.Headers) continue;
        const d = decoder.decode(f.payload);
        assert.equal(d.kind, 'ok');
        const grpcStatus = d.kind === 'ok' ? d.fields.find((h) => h.name === 'grpc-status')?.value : undefined;
        if (f.streamId === streamId && grpcStatus !== undefined) status = grpcStatus;
      }
      statuses.push(status);
    }
    return statuses;
  } finally {
    socket.destroy();
  }
}

for (const [name, authority, relayed] of [
  ['a URL as :authority is served through the relay', (port: number) => `http://127.0.0.1:${port}`, true],
  ['host:port as :authority is handed over plain', (port: number) => `127.0.0.1:${port}`, false],
] as const) {
  void test(name, async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
    const grpcServer = healthServer();
    const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, () => undefined, logger);
    try {
      const port = listener.address.port;
      assert.deepEqual(await goLikeClient(port, authority(port)), ['0', '0']);
      const relayLines = lines.filter((l) => l.includes(':authority relay'));
      assert.equal(relayLines.length, relayed ? 1 : 0, lines.join(''));
      if (relayed) assert.match(relayLines[0], new RegExp(`"authority":"http://127\\.0\\.0\\.1:${port}"`));
    } finally {
      await listener.close();
      grpcServer.forceShutdown();
    }
  });
}

void test('a client silent after its preface gets the empty SETTINGS, then the server\'s own once the opening times out', async () => {
  const grpcServer = healthServer();
  const logger = pino({ level: 'silent' });
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, () => undefined, logger, { h2OpeningTimeoutMs: 50 });
  const socket = connect(listener.address.port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    const next = frameReader(socket);
    socket.write(Buffer.concat([HTTP2_PREFACE, frame(FrameType.Settings, 0, 0)]));
    const first = await next();
    assert.deepEqual([first.type, first.flags, first.payload.length], [FrameType.Settings, 0, 0]);
    // Nothing more from the client: after the opening timeout the server speaks for itself
    // (its SETTINGS, and the ACK of the client's).
    const seen: string[] = [];
    while (!(seen.includes('settings') && seen.includes('ack'))) {
      const f = await next();
      if (f.type === FrameType.Settings) seen.push((f.flags & FrameFlag.Ack) !== 0 ? 'ack' : 'settings');
    }
  } finally {
    socket.destroy();
    await listener.close();
    grpcServer.forceShutdown();
  }
});
