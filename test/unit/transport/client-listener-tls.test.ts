/**
 * The client port over TLS, in process: a grpc-js client with a client certificate and an
 * HTTP/1.1 client on one https port, each handler seeing the verified certificate's CN
 * (server/tls/client-identity.ts); a client without a certificate is refused when one is required;
 * with a CRL (PEM, or DER and expired as etcd's fixture), a revoked client certificate is refused
 * and another one of the CA still served.
 * Certificates come from openssl (test/support/tls-certs.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { after, before, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { ServedServices } from '../../support/served-services.js';
import pino from 'pino';
import { HealthCheckResponse_ServingStatus, HealthClient, HealthService, type HealthCheckRequest, type HealthCheckResponse } from '../../../proto/gen/etcd/health.js';
import { grpcClientCommonName, httpClientCommonName } from '../../../server/tls/client-identity.js';
import { createTlsSource } from '../../../server/tls/tls-source.js';
import { listenClient, type ClientListener } from '../../../server/transport/client-listener.js';
import { issueCertificate, makeTlsFiles, revokeCertificates, type CrlOptions, type TlsFiles } from '../../support/tls-certs.js';

const logger = pino({ level: 'silent' });
const FLAGS = { certFile: '--cert-file', keyFile: '--key-file', trustedCaFile: '--trusted-ca-file', crlFile: '--client-crl-file' };
const PROTOCOL = { ciphers: undefined, minVersion: 'TLSv1.2' as const, maxVersion: undefined };
const seen: { grpc: (string | undefined)[]; http: (string | undefined)[] } = { grpc: [], http: [] };
let files: TlsFiles;
let listener: ClientListener;
let grpcServer: ServedServices;

before(async () => {
  files = await makeTlsFiles(['127.0.0.1']);
  grpcServer = new ServedServices();
  grpcServer.addService(HealthService, {
    check: (call: grpc.ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, cb: grpc.sendUnaryData<HealthCheckResponse>) => {
      seen.grpc.push(grpcClientCommonName(call));
      cb(null, { status: HealthCheckResponse_ServingStatus.SERVING });
    },
    watch: (call: grpc.ServerWritableStream<HealthCheckRequest, HealthCheckResponse>) => call.end(),
  });
  const source = createTlsSource({
    files: { certFile: files.serverCert, keyFile: files.serverKey, trustedCaFile: files.caCert, crlFile: '' },
    flags: FLAGS,
    protocol: PROTOCOL,
    skipVerify: false,
    logger,
  });
  await source.load();
  listener = await listenClient(
    new URL('https://127.0.0.1:0'),
    grpcServer,
    (req, res) => {
      seen.http.push(httpClientCommonName(req));
      res.end('ok');
    },
    logger,
    { tls: { source, requireClientCert: true } },
  );
});

after(async () => {
  await listener?.close();
  grpcServer?.forceShutdown();
});

function check(creds: grpc.ChannelCredentials, port = listener.address.port): Promise<HealthCheckResponse> {
  const client = new HealthClient(`127.0.0.1:${port}`, creds);
  return new Promise((resolve, reject) => {
    client.check({ service: '' }, new grpc.Metadata(), { deadline: Date.now() + 5000 }, (err, resp) => {
      client.close();
      if (err) reject(err);
      else resolve(resp);
    });
  });
}

void test('gRPC over TLS: the call sees the client certificate CN; without a certificate the call fails', async () => {
  const ca = readFileSync(files.caCert);
  const resp = await check(grpc.credentials.createSsl(ca, readFileSync(files.clientKey), readFileSync(files.clientCert)));
  assert.equal(resp.status, HealthCheckResponse_ServingStatus.SERVING);
  assert.deepEqual(seen.grpc, ['root']);
  await assert.rejects(check(grpc.credentials.createSsl(ca)), (e: grpc.ServiceError) => e.code === grpc.status.UNAVAILABLE || e.code === grpc.status.DEADLINE_EXCEEDED);
  assert.deepEqual(seen.grpc, ['root']);
});

void test('HTTP/1.1 over TLS: the handler sees the client certificate CN', async () => {
  const body = await new Promise<string>((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: listener.address.port, path: '/x', ca: readFileSync(files.caCert), cert: readFileSync(files.clientCert), key: readFileSync(files.clientKey), agent: false },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve(Buffer.concat(parts).toString()));
      },
    );
    req.on('error', reject);
    req.end();
  });
  assert.equal(body, 'ok');
  assert.deepEqual(seen.http, ['root']);
});

const CRL_FORMS: readonly { readonly name: string; readonly opts: CrlOptions }[] = [
  { name: 'PEM', opts: {} },
  // etcd's fixtures/revoke.crl: DER, and long past its nextUpdate (etcd only compares serials)
  { name: 'DER, expired', opts: { der: true, expired: true } },
];

for (const form of CRL_FORMS) void test(`--client-crl-file (${form.name}): a revoked client certificate is refused, another one of the CA is served`, async () => {
  const other = await issueCertificate(files, `other-client-${form.opts.der === true ? 'der' : 'pem'}`, 'other', []);
  const crlFile = await revokeCertificates(files, [files.clientCert], form.opts);
  const source = createTlsSource({
    files: { certFile: files.serverCert, keyFile: files.serverKey, trustedCaFile: files.caCert, crlFile },
    flags: FLAGS,
    protocol: PROTOCOL,
    skipVerify: false,
    logger,
  });
  await source.load();
  const revoking = await listenClient(new URL('https://127.0.0.1:0'), grpcServer, (_req, res) => void res.end('ok'), logger, { tls: { source, requireClientCert: true } });
  try {
    const ca = readFileSync(files.caCert);
    const port = revoking.address.port;
    await assert.rejects(check(grpc.credentials.createSsl(ca, readFileSync(files.clientKey), readFileSync(files.clientCert)), port));
    const resp = await check(grpc.credentials.createSsl(ca, readFileSync(other.key), readFileSync(other.cert)), port);
    assert.equal(resp.status, HealthCheckResponse_ServingStatus.SERVING);
    assert.equal(seen.grpc.at(-1), 'other');
  } finally {
    await revoking.close();
  }
});
