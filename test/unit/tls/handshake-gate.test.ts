/**
 * tls-acceptor.ts with an allowed CN or hostname (handshake-gate.ts), in process, with Node's TLS
 * client as the dialling peer: a certificate with another CN (or not valid for the allowed
 * hostname) fails the client's *handshake* with a bad_certificate alert ("remote error: tls: bad
 * certificate", as etcd answers); so does one from an unknown CA; an allowed certificate gets a
 * working connection in both directions, and so do several at once (each gate is its own); a
 * revoked certificate with the allowed CN completes its handshake and is then closed (etcd's CRL
 * check runs after the handshake).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { connect } from 'node:tls';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { remoteAlertText } from '../../../server/tls/tls-alert-text.js';
import { createTlsAcceptor, type TlsAcceptor } from '../../../server/tls/tls-acceptor.js';
import { createTlsSource } from '../../../server/tls/tls-source.js';
import { issueCertificate, makeTlsFiles, revokeCertificates, type TlsFiles } from '../../support/tls-certs.js';

const logger = pino({ level: 'silent' });
const FLAGS = { certFile: '--peer-cert-file', keyFile: '--peer-key-file', trustedCaFile: '--peer-trusted-ca-file', crlFile: '--peer-crl-file' };
let files: TlsFiles;
let foreign: TlsFiles;
let allowed: { cert: string; key: string };
let other: { cert: string; key: string };
const opened: { server: Server; acceptor: TlsAcceptor }[] = [];
const refusals: string[] = [];

before(async () => {
  files = await makeTlsFiles(['127.0.0.1']);
  foreign = await makeTlsFiles(['127.0.0.1']);
  allowed = await issueCertificate(files, 'allowed', 'example.com', ['127.0.0.1'], ['localhost', 'peer.example.com']);
  other = await issueCertificate(files, 'other', 'example2.com', ['127.0.0.1'], ['localhost']);
});

after(() => {
  for (const o of opened) {
    o.acceptor.close();
    o.server.close();
  }
});

/** A peer-like TLS port echoing what it reads, with the given name policy; its port. */
async function gatedPort(allowedCn: string, allowedHostname: string, crlFile = ''): Promise<number> {
  const source = createTlsSource({
    files: { certFile: files.serverCert, keyFile: files.serverKey, trustedCaFile: files.caCert, crlFile },
    flags: FLAGS,
    protocol: { ciphers: undefined, minVersion: 'TLSv1.2', maxVersion: undefined },
    skipVerify: false,
    logger,
  });
  await source.load();
  const acceptor = createTlsAcceptor(
    { source, requireClientCert: true, allowedCn, allowedHostname, alpn: ['http/1.1'], handshakeTimeoutMs: 10_000 },
    { onSecure: (s) => s.on('data', (d: Buffer) => s.write(`echo ${d.toString()}`)), onRefused: (reason) => refusals.push(reason) },
  );
  const server = createServer((raw) => acceptor.accept(raw));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  opened.push({ server, acceptor });
  return (server.address() as AddressInfo).port;
}

/** Dials with a client certificate; 'echo hi' on success, else the error in Go's words (or its message). */
function dial(port: number, cert: { cert: string; key: string }, ca = files.caCert): Promise<{ handshake: boolean; result: string }> {
  return new Promise((resolve) => {
    let handshake = false;
    const s = connect({ host: '127.0.0.1', port, ca: readFileSync(ca), cert: readFileSync(cert.cert), key: readFileSync(cert.key), servername: 'localhost' });
    s.on('secureConnect', () => {
      handshake = true;
      s.write('hi');
    });
    s.on('data', (d: Buffer) => {
      s.end();
      resolve({ handshake, result: d.toString() });
    });
    s.on('error', (e) => resolve({ handshake, result: remoteAlertText(e) ?? e.message }));
    s.on('close', () => resolve({ handshake, result: 'closed' }));
  });
}

void test('--peer-cert-allowed-cn: another CN fails the handshake with bad_certificate; the allowed CN is served', async () => {
  const port = await gatedPort('example.com', '');
  assert.deepEqual(await dial(port, other), { handshake: false, result: 'remote error: tls: bad certificate' });
  assert.match(refusals.at(-1) ?? '', /CN "example2\.com" is not "example\.com"/);
  assert.deepEqual(await dial(port, allowed), { handshake: true, result: 'echo hi' });
  const several = await Promise.all([dial(port, allowed), dial(port, other), dial(port, allowed), dial(port, other)]);
  assert.deepEqual(
    several.map((r) => r.result),
    ['echo hi', 'remote error: tls: bad certificate', 'echo hi', 'remote error: tls: bad certificate'],
  );
});

void test('--peer-cert-allowed-hostname: a certificate not valid for it fails the handshake with bad_certificate', async () => {
  const port = await gatedPort('', 'peer.example.com');
  assert.deepEqual(await dial(port, other), { handshake: false, result: 'remote error: tls: bad certificate' });
  assert.deepEqual(await dial(port, allowed), { handshake: true, result: 'echo hi' });
});

void test('with a name policy, a certificate from an unknown CA fails the handshake with bad_certificate too', async () => {
  const port = await gatedPort('example.com', '');
  const r = await dial(port, { cert: foreign.clientCert, key: foreign.clientKey });
  assert.deepEqual(r, { handshake: false, result: 'remote error: tls: bad certificate' });
});

void test('with a name policy and a CRL, a revoked certificate of the allowed CN is closed after its handshake', async () => {
  const revokedCert = await issueCertificate(files, 'revoked-allowed', 'example.com', ['127.0.0.1']);
  const crl = await revokeCertificates(files, [revokedCert.cert]);
  const port = await gatedPort('example.com', '', crl);
  const r = await dial(port, revokedCert);
  assert.equal(r.handshake, true);
  assert.notEqual(r.result, 'echo hi');
  assert.match(refusals.at(-1) ?? '', /revoked/);
  assert.deepEqual(await dial(port, allowed), { handshake: true, result: 'echo hi' });
});
