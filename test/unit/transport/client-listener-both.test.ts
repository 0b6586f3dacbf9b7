/**
 * One client port listed as both http:// and https:// (client-ports.ts, tls-or-plain.ts), in
 * process: plaintext HTTP/1.1 and h2c gRPC, HTTP/1.1 and gRPC over TLS, all on one port; and the
 * edge survives what comes before the first decisive byte — garbage, a TLS record byte followed by
 * garbage, a client that closes before its first byte, one that sends nothing (dropped after the
 * bounded wait), one that sends its request a byte at a time — and still serves afterwards.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { HealthCheckResponse_ServingStatus, HealthClient, HealthService, type HealthCheckRequest, type HealthCheckResponse } from '../../../proto/gen/etcd/health.js';
import { createTlsSource } from '../../../server/tls/tls-source.js';
import { listenClient, type ClientListener } from '../../../server/transport/client-listener.js';
import { ServedServices } from '../../support/served-services.js';
import { makeTlsFiles, type TlsFiles } from '../../support/tls-certs.js';

const logger = pino({ level: 'silent' });
const FLAGS = { certFile: '--cert-file', keyFile: '--key-file', trustedCaFile: '--trusted-ca-file', crlFile: '--client-crl-file' };
let files: TlsFiles;
let listener: ClientListener;
let grpcServer: ServedServices;

before(async () => {
  files = await makeTlsFiles(['127.0.0.1']);
  grpcServer = new ServedServices();
  grpcServer.addService(HealthService, {
    check: (_call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, cb: grpc.sendUnaryData<HealthCheckResponse>) => cb(null, { status: HealthCheckResponse_ServingStatus.SERVING }),
    watch: (call: grpc.ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => call.end(),
  });
  const source = createTlsSource({
    files: { certFile: files.serverCert, keyFile: files.serverKey, trustedCaFile: files.caCert, crlFile: '' },
    flags: FLAGS,
    protocol: { ciphers: undefined, minVersion: 'TLSv1.2', maxVersion: undefined },
    skipVerify: false,
    logger,
  });
  await source.load();
  listener = await listenClient(
    { url: new URL('https://127.0.0.1:0'), plain: true, secure: true },
    grpcServer,
    (req, res) => void res.end(`ok ${req.url ?? ''}`),
    logger,
    { tls: { source, requireClientCert: true }, sniffTimeoutMs: 300 },
  );
});

after(async () => {
  await listener?.close();
  grpcServer?.forceShutdown();
});

const port = (): number => listener.address.port;
const tlsClient = () => ({ ca: readFileSync(files.caCert), cert: readFileSync(files.clientCert), key: readFileSync(files.clientKey) });

function get(secure: boolean, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port: port(), path, agent: false };
    const onResponse = (res: import('node:http').IncomingMessage): void => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve(Buffer.concat(parts).toString()));
    };
    const req = secure ? httpsRequest({ ...options, ...tlsClient() }, onResponse) : httpRequest(options, onResponse);
    req.on('error', reject);
    req.end();
  });
}

function check(creds: grpc.ChannelCredentials): Promise<HealthCheckResponse> {
  const client = new HealthClient(`127.0.0.1:${port()}`, creds);
  return new Promise((resolve, reject) => {
    client.check({ service: '' }, new grpc.Metadata(), { deadline: Date.now() + 5000 }, (err, resp) => {
      client.close();
      if (err) reject(err);
      else resolve(resp);
    });
  });
}

/** Serves all four ways. */
async function servesAll(): Promise<void> {
  assert.equal(await get(false, '/plain'), 'ok /plain');
  assert.equal(await get(true, '/secure'), 'ok /secure');
  assert.equal((await check(grpc.credentials.createInsecure())).status, HealthCheckResponse_ServingStatus.SERVING);
  const t = tlsClient();
  assert.equal((await check(grpc.credentials.createSsl(t.ca, t.key, t.cert))).status, HealthCheckResponse_ServingStatus.SERVING);
}

/** Connects, runs `act`, and resolves with what the server sent once it closed the connection. */
function rawClient(act: (s: Socket) => void): Promise<Buffer> {
  return new Promise((resolve) => {
    const s = connect(port(), '127.0.0.1');
    const got: Buffer[] = [];
    s.on('data', (c: Buffer) => got.push(c));
    s.on('error', () => undefined);
    s.on('close', () => resolve(Buffer.concat(got)));
    s.on('connect', () => act(s));
  });
}

void test('http and https on one port: HTTP/1.1 and gRPC, plaintext and over TLS', async () => {
  await servesAll();
});

void test('garbage first bytes are closed without an answer; the port still serves', async () => {
  const answer = await rawClient((s) => s.write(Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0d, 0x0a])));
  assert.equal(answer.length, 0);
  await servesAll();
});

void test('a TLS record byte followed by garbage fails the handshake; the port still serves', async () => {
  await rawClient((s) => s.end(Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x00, 0x10]), Buffer.alloc(16, 0xab)])));
  await servesAll();
});

void test('a client that closes before its first byte, and one that sends nothing, are dropped', async () => {
  await rawClient((s) => s.end());
  await rawClient((s) => s.destroy());
  // Nothing sent: the bounded wait (sniffTimeoutMs) drops it; 'close' arrives without our end.
  const silent = await rawClient(() => undefined);
  assert.equal(silent.length, 0);
  await servesAll();
});

void test('a request sent a byte at a time is served', async () => {
  const text = 'GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
  const answer = await rawClient((s) => {
    let i = 0;
    const next = (): void => {
      if (i >= text.length) return;
      s.write(text[i++] ?? '', () => setImmediate(next));
    };
    next();
  });
  assert.match(answer.toString(), /^HTTP\/1\.1 200 [^]*ok \/slow$/);
});
