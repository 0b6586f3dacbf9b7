/**
 * The HTTP/2 relay (server/api/grpc/h2-relay.ts) between our own framing and grpc-js, driven by
 * a real grpc-js client: every stream of the connection is relayed (h2-relay-harness.ts). A unary
 * round trip with metadata both ways; many server-streamed messages (3 MiB, through the client's
 * 64 KiB windows); a stream left unread not holding up other calls; client streaming; bidi echo; an error status (trailers-only); a client
 * cancel, and the client connection dropping, reaching the handler; the handler's `getPeer()` being the client's socket; and, over
 * TLS, the handler's auth context carrying the client's certificate.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { makeTlsFiles } from '../../support/tls-certs.js';
import { relayClient, startRelayWorld, type RelayWorld, type TestClient } from './h2-relay-harness.js';

let world: RelayWorld;
let client: TestClient;
before(async () => {
  world = await startRelayWorld();
  client = relayClient(world);
});
after(() => {
  client.close();
  world.stop();
});

function unary(c: TestClient, req: Buffer, md = new grpc.Metadata()): Promise<{ reply: Buffer; trailers: grpc.Metadata; headers: grpc.Metadata }> {
  return new Promise((resolve, reject) => {
    let headers = new grpc.Metadata();
    const call = c.unary(req, md, (err, reply) => {
      if (err !== null) reject(err);
      else call.on('status', (s: grpc.StatusObject) => resolve({ reply: reply!, trailers: s.metadata, headers }));
    });
    call.on('metadata', (m: grpc.Metadata) => (headers = m));
  });
}

const collect = (call: grpc.ClientReadableStream<Buffer>): Promise<Buffer[]> =>
  new Promise((resolve, reject) => {
    const got: Buffer[] = [];
    call.on('data', (d: Buffer) => got.push(d));
    call.on('error', reject);
    call.on('end', () => resolve(got));
  });

void test('a unary call round-trips; metadata in, initial metadata and trailers out', async () => {
  world.handlers.unary = (call, cb) => {
    const md = new grpc.Metadata();
    md.set('x-out', 'head');
    call.sendMetadata(md);
    const trailer = new grpc.Metadata();
    trailer.set('x-trailer', `got ${String(call.metadata.get('x-in')[0])}`);
    trailer.set('x-bin', Buffer.from([0, 1, 2, 255]));
    cb(null, Buffer.concat([Buffer.from('echo:'), call.request]), trailer);
  };
  const md = new grpc.Metadata();
  md.set('x-in', 'hello');
  const { reply, headers, trailers } = await unary(client, Buffer.from('ping'), md);
  assert.equal(reply.toString(), 'echo:ping');
  assert.deepEqual(headers.get('x-out'), ['head']);
  assert.deepEqual(trailers.get('x-trailer'), ['got hello']);
  assert.deepEqual(trailers.get('x-bin'), [Buffer.from([0, 1, 2, 255])]);
});

void test('server streaming: 200 messages and a 3 MiB one arrive whole and in order, paced by the client window', async () => {
  const big = Buffer.alloc(3 << 20);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 0xff;
  world.handlers.serverStream = (call) => {
    const count = call.request.readUInt32BE(0);
    for (let i = 0; i < count; i++) call.write(Buffer.from(`message-${i}`));
    call.write(big);
    call.end();
  };
  const before = world.stats.writeFull;
  const req = Buffer.alloc(4);
  req.writeUInt32BE(200, 0);
  const got = await collect(client.serverStream(req));
  assert.equal(got.length, 201);
  got.slice(0, 200).forEach((m, i) => assert.equal(m.toString(), `message-${i}`));
  assert.ok(got[200]!.equals(big));
  assert.ok(world.stats.writeFull > before, 'the client window filled at least once');
});

void test('a stream the client does not read does not hold up the other calls on its connection', async () => {
  const own = relayClient(world);
  world.handlers.serverStream = (call) => {
    for (let i = 0; i < 64; i++) call.write(Buffer.alloc(64 << 10, i));
    call.end();
  };
  world.handlers.unary = (call, cb) => cb(null, call.request);
  try {
    const stalled = own.serverStream(Buffer.alloc(0));
    const got: Buffer[] = [];
    const ended = new Promise<void>((resolve, reject) => {
      stalled.on('error', reject);
      stalled.on('end', resolve);
    });
    await new Promise<void>((resolve) =>
      stalled.once('data', (d: Buffer) => {
        got.push(d);
        stalled.pause();
        resolve();
      }),
    );
    for (let i = 0; i < 3; i++) assert.equal((await unary(own, Buffer.from(`u${i}`))).reply.toString(), `u${i}`);
    stalled.on('data', (d: Buffer) => got.push(d));
    stalled.resume();
    await ended;
    assert.equal(got.length, 64);
    got.forEach((m, i) => assert.ok(m.equals(Buffer.alloc(64 << 10, i))));
  } finally {
    own.close();
  }
});

void test('client streaming: every message reaches the handler, one answer comes back', async () => {
  world.handlers.clientStream = (call, cb) => {
    const parts: Buffer[] = [];
    call.on('data', (d: Buffer) => parts.push(d));
    call.on('end', () => cb(null, Buffer.from(`${parts.length}:${Buffer.concat(parts).length}`)));
  };
  const reply = await new Promise<Buffer>((resolve, reject) => {
    const call = client.clientStream((err, r) => (err !== null ? reject(err) : resolve(r!)));
    for (let i = 0; i < 50; i++) call.write(Buffer.alloc(64 << 10, i));
    call.end();
  });
  assert.equal(reply.toString(), `50:${50 * (64 << 10)}`);
});

void test('bidi: each message is echoed as it comes', async () => {
  world.handlers.bidi = (call) => {
    call.on('data', (d: Buffer) => call.write(Buffer.concat([Buffer.from('re:'), d])));
    call.on('end', () => call.end());
  };
  const call = client.bidi();
  const got: string[] = [];
  const done = new Promise<void>((resolve, reject) => {
    call.on('data', (d: Buffer) => {
      got.push(d.toString());
      if (got.length < 5) call.write(Buffer.from(`m${got.length}`));
      else call.end();
    });
    call.on('error', reject);
    call.on('end', resolve);
  });
  call.write(Buffer.from('m0'));
  await done;
  assert.deepEqual(got, ['re:m0', 're:m1', 're:m2', 're:m3', 're:m4']);
});

void test('an error status from the handler arrives with its code, message and trailers (trailers-only)', async () => {
  world.handlers.unary = (_call, cb) => {
    const md = new grpc.Metadata();
    md.set('x-why', 'because');
    cb({ code: grpc.status.FAILED_PRECONDITION, details: 'etcdserver: not allowed', metadata: md });
  };
  const before = world.stats.headersOnly;
  await assert.rejects(unary(client, Buffer.from('x')), (err: grpc.ServiceError) => {
    assert.equal(err.code, grpc.status.FAILED_PRECONDITION);
    assert.equal(err.details, 'etcdserver: not allowed');
    assert.deepEqual(err.metadata.get('x-why'), ['because']);
    return true;
  });
  assert.equal(world.stats.headersOnly, before + 1, 'sent to the client as one headers block with END_STREAM');
});

/** A bidi handler that writes once and resolves the returned promise when its call is cancelled. */
function cancelledBidi(): Promise<void> {
  let cancelled!: () => void;
  const seen = new Promise<void>((resolve) => (cancelled = resolve));
  world.handlers.bidi = (call) => {
    call.on('cancelled', () => cancelled());
    call.on('error', () => undefined);
    call.write(Buffer.from('started'));
  };
  return seen;
}

void test('a client cancel reaches the handler as cancelled', async () => {
  const seen = cancelledBidi();
  const call = client.bidi();
  call.on('error', () => undefined);
  await new Promise<void>((resolve) => call.once('data', () => resolve()));
  call.cancel();
  await seen;
});

void test('the client connection dropping cancels the relayed calls in the handler', async () => {
  const own = relayClient(world);
  const seen = cancelledBidi();
  try {
    const call = own.bidi();
    call.on('error', () => undefined);
    await new Promise<void>((resolve) => call.once('data', () => resolve()));
    world.sockets.at(-1)!.destroy();
    await seen;
  } finally {
    own.close();
  }
});

void test("the handler's getPeer() is the client's address and port as the server sees them", async () => {
  const own = relayClient(world);
  let peer = '';
  world.handlers.unary = (call, cb) => {
    peer = call.getPeer();
    cb(null, Buffer.alloc(0));
  };
  try {
    await unary(own, Buffer.alloc(0));
    const socket = world.sockets.at(-1)!;
    assert.equal(peer, `${socket.remoteAddress}:${socket.remotePort}`);
  } finally {
    own.close();
  }
});

void test('over TLS, the auth context of a relayed call holds the client certificate', async () => {
  const tls = await makeTlsFiles(['127.0.0.1']);
  const tlsWorld = await startRelayWorld(tls);
  const tlsClient = relayClient(tlsWorld, tls);
  try {
    let subject: unknown;
    let transport: unknown;
    let peer = '';
    tlsWorld.handlers.unary = (call, cb) => {
      const auth = call.getAuthContext();
      transport = auth.transportSecurityType;
      subject = auth.sslPeerCertificate?.subject.CN;
      peer = call.getPeer();
      cb(null, Buffer.from('ok'));
    };
    const { reply } = await unary(tlsClient, Buffer.alloc(0));
    assert.equal(reply.toString(), 'ok');
    assert.equal(transport, 'ssl');
    assert.equal(subject, 'root');
    const socket = tlsWorld.sockets.at(-1)!;
    assert.equal(peer, `${socket.remoteAddress}:${socket.remotePort}`);
  } finally {
    tlsClient.close();
    tlsWorld.stop();
  }
});
