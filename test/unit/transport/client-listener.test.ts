/**
 * One port for gRPC and HTTP/1.1: a real grpc-js client call and real HTTP/1.1 requests on
 * the same port; idle and half-preface clients are dropped after the sniff timeout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { ServedServices } from '../../support/served-services.js';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import pino from 'pino';
import {
  HealthCheckResponse_ServingStatus,
  HealthClient,
  HealthService,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from '../../../proto/gen/etcd/health.js';
import { listenAddress, listenClient, type HttpHandler } from '../../../server/transport/client-listener.js';
import { listenClients } from '../../../server/transport/listen-clients.js';
import { HTTP2_PREFACE } from '../../../server/transport/protocol-sniff.js';

const logger = pino({ level: 'silent' });

function healthServer(): ServedServices {
  const server = new ServedServices();
  server.addService(HealthService, {
    check: (
      _call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>,
      cb: grpc.sendUnaryData<HealthCheckResponse>,
    ) => cb(null, { status: HealthCheckResponse_ServingStatus.SERVING }),
    watch: (call: grpc.ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => {
      call.end();
    },
  });
  return server;
}

const echoHandler: HttpHandler = (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    res.setHeader('content-type', 'text/plain');
    res.end(`${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`);
  });
};

function httpCall(port: number, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function grpcCheck(port: number): Promise<HealthCheckResponse> {
  const client = new HealthClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise<HealthCheckResponse>((resolve, reject) => {
    client.check({ service: '' }, (err, resp) => {
      client.close();
      if (err) reject(err);
      else resolve(resp);
    });
  });
}

async function waitClosed(socket: Socket): Promise<void> {
  if (socket.closed) return;
  await once(socket, 'close');
}

void test('gRPC and HTTP/1.1 are both served on one port', async () => {
  const grpcServer = healthServer();
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, echoHandler, logger);
  try {
    const port = listener.address.port;
    assert.ok(port > 0);
    const [health, get, post] = await Promise.all([
      grpcCheck(port),
      httpCall(port, 'GET', '/version'),
      httpCall(port, 'POST', '/v3/kv/put', '{"key":"Zm9v"}'),
    ]);
    assert.equal(health.status, HealthCheckResponse_ServingStatus.SERVING);
    assert.deepEqual(get, { status: 200, body: 'GET /version ' });
    assert.deepEqual(post, { status: 200, body: 'POST /v3/kv/put {"key":"Zm9v"}' });
    // a second gRPC call after HTTP traffic still works
    assert.equal((await grpcCheck(port)).status, HealthCheckResponse_ServingStatus.SERVING);
  } finally {
    await listener.close();
    grpcServer.forceShutdown();
  }
});

void test('an HTTP/1.1 request split across TCP segments and a keep-alive second request', async () => {
  const grpcServer = healthServer();
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, echoHandler, logger);
  try {
    const socket = connect(listener.address.port, '127.0.0.1');
    await once(socket, 'connect');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString()));
    socket.write('P');
    await new Promise((r) => setTimeout(r, 20));
    socket.write('OST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi');
    socket.write('GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await waitClosed(socket);
    assert.match(text, /HTTP\/1\.1 200 OK[\s\S]*POST \/a hi/);
    assert.match(text, /HTTP\/1\.1 200 OK[\s\S]*GET \/b $/);
  } finally {
    await listener.close();
    grpcServer.forceShutdown();
  }
});

void test('a client that sends nothing, or half a preface, is dropped after the sniff timeout', async () => {
  const grpcServer = healthServer();
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, echoHandler, logger, {
    sniffTimeoutMs: 50,
  });
  try {
    const idle = connect(listener.address.port, '127.0.0.1');
    const half = connect(listener.address.port, '127.0.0.1');
    half.on('connect', () => half.write(HTTP2_PREFACE.subarray(0, 10)));
    await Promise.all([waitClosed(idle), waitClosed(half)]);
    assert.ok(idle.closed && half.closed);
    // the port still serves afterwards
    assert.equal((await httpCall(listener.address.port, 'GET', '/x')).status, 200);
  } finally {
    await listener.close();
    grpcServer.forceShutdown();
  }
});

void test('close() ends idle HTTP keep-alive connections and resolves', async () => {
  const grpcServer = healthServer();
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, echoHandler, logger, {
    closeGraceMs: 200,
  });
  const socket = connect(listener.address.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.on('data', () => undefined);
  socket.write('GET /a HTTP/1.1\r\nHost: x\r\n\r\n');
  await once(socket, 'data');
  await listener.close();
  await waitClosed(socket);
  assert.ok(socket.closed);
  grpcServer.forceShutdown();
});

void test('listenClients binds several URLs; a bad URL fails the whole set', async () => {
  const grpcServer = healthServer();
  const set = await listenClients(
    [new URL('http://127.0.0.1:0'), new URL('http://127.0.0.1:0')],
    grpcServer,
    echoHandler,
    logger,
  );
  try {
    assert.equal(set.listeners.length, 2);
    for (const l of set.listeners) assert.equal((await grpcCheck(l.address.port)).status, HealthCheckResponse_ServingStatus.SERVING);
  } finally {
    await set.close();
  }
  await assert.rejects(
    listenClients([new URL('http://127.0.0.1:0'), new URL('https://127.0.0.1:0')], grpcServer, echoHandler, logger),
    /no TLS certificate for client URL https:/,
  );
  grpcServer.forceShutdown();
});

void test('listenAddress accepts http URLs with a port, IPv6 literals included', () => {
  assert.deepEqual(listenAddress(new URL('http://127.0.0.1:2379')), { host: '127.0.0.1', port: 2379 });
  assert.deepEqual(listenAddress(new URL('http://[::1]:0')), { host: '::1', port: 0 });
  assert.throws(() => listenAddress(new URL('http://localhost')), /must have a port/);
  assert.throws(() => listenAddress(new URL('unix://x')), /unsupported/);
  assert.throws(() => listenAddress(new URL('https://127.0.0.1:2379')), /unsupported/);
  assert.deepEqual(listenAddress(new URL('https://127.0.0.1:2379'), true), { host: '127.0.0.1', port: 2379 });
});

void test('close() resolves while a gRPC client still holds its connection (GOAWAY, then grace)', async () => {
  const grpcServer = healthServer();
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, echoHandler, logger, {
    closeGraceMs: 200,
  });
  const client = new HealthClient(`127.0.0.1:${listener.address.port}`, grpc.credentials.createInsecure());
  const first = await new Promise<HealthCheckResponse>((resolve, reject) =>
    client.check({ service: '' }, (err, resp) => (err ? reject(err) : resolve(resp))),
  );
  assert.equal(first.status, HealthCheckResponse_ServingStatus.SERVING);
  await listener.close();
  client.close();
  grpcServer.forceShutdown();
});

void test('an HTTP/1.1 client that never completes its request head is dropped', async () => {
  const grpcServer = healthServer();
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, echoHandler, logger, {
    headersTimeoutMs: 50,
  });
  try {
    const slow = connect(listener.address.port, '127.0.0.1');
    slow.on('connect', () => slow.write('GET /version HTTP/1.1\r\nHost: x\r\n'));
    slow.on('data', () => undefined);
    await waitClosed(slow);
    assert.ok(slow.closed);
  } finally {
    await listener.close();
    grpcServer.forceShutdown();
  }
});

/** Sends `text` and ends the sending side at once (what `nc -N` and some health checkers do); resolves with all the answer. */
async function halfClosedRequest(host: string, port: number, text: string): Promise<string> {
  const socket = connect(port, host, () => socket.end(text));
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', () => undefined);
  const timer = setTimeout(() => socket.destroy(), 5_000);
  await once(socket, 'close');
  clearTimeout(timer);
  return Buffer.concat(chunks).toString();
}

void test('a client that ends its side right after its request still gets the answer (even from a slow handler), then the socket ends', async () => {
  const grpcServer = healthServer();
  const slow: HttpHandler = (req, res) => {
    setTimeout(() => res.end(`late ${req.url}`), 50);
  };
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, slow, logger);
  try {
    for (let i = 0; i < 5; i++) {
      const answer = await halfClosedRequest('127.0.0.1', listener.address.port, `GET /version${i} HTTP/1.1\r\nHost: x\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 200 OK/);
      assert.ok(answer.endsWith(`late /version${i}`), answer);
    }
  } finally {
    await listener.close();
    grpcServer.forceShutdown();
  }
});

void test('with `hold`, a connection made early waits, unanswered, and is served once the hold resolves', async () => {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => (release = resolve));
  const grpcServer = healthServer();
  const listener = await listenClient(new URL('http://127.0.0.1:0'), grpcServer, echoHandler, logger, { hold });
  try {
    let answered = false;
    const call = httpCall(listener.address.port, 'GET', '/early').then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(answered, false, 'held: no answer before the hold resolves');
    release();
    assert.deepEqual(await call, { status: 200, body: 'GET /early ' });
    assert.deepEqual(await httpCall(listener.address.port, 'GET', '/later'), { status: 200, body: 'GET /later ' });
  } finally {
    await listener.close();
  }
});
