// Local mode's generated TLS files: a CA, member certificates for their loopback address, the
// operator's client certificate; keys 0600; kept while they fit, made again when a member moves;
// and they work: a TLS server with one member's certificate requiring client certificates
// accepts the operator's and refuses a client without one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:tls';
import { LocalCertificates } from '../../../operator/runtime/local/local-certificates.js';
import { makeTempDir } from '../../support/registry.js';

const now = () => Date.now();

void test('member and operator certificates signed by one CA, SANs and key usages as needed', async () => {
  const certs = new LocalCertificates(`${makeTempDir('local-tls')}/tls`, now);
  const [a, b] = await Promise.all([certs.memberFiles('demo-0', '127.0.0.23'), certs.memberFiles('demo-1', '127.0.0.24')]);
  assert.ok(a.ok && b.ok);
  const ca = new X509Certificate(readFileSync(a.value.caFile));
  assert.equal(a.value.caFile, b.value.caFile);
  assert.ok(ca.ca);
  const m0 = new X509Certificate(readFileSync(a.value.certFile));
  assert.ok(m0.checkIssued(ca) && m0.verify(ca.publicKey));
  assert.equal(m0.subjectAltName, 'IP Address:127.0.0.23, DNS:localhost');
  assert.deepEqual([...(m0.keyUsage ?? [])].sort(), ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
  assert.equal(statSync(a.value.keyFile).mode & 0o777, 0o600);
  const op = await certs.operatorAccess();
  assert.ok(op.ok);
  const opCert = new X509Certificate(op.value.cert);
  assert.ok(opCert.checkIssued(ca));
  assert.deepEqual([...(opCert.keyUsage ?? [])], ['1.3.6.1.5.5.7.3.2']);
  assert.equal(new X509Certificate(op.value.ca).fingerprint256, ca.fingerprint256);
});

void test('kept while they fit; a member on a new address gets a new certificate', async () => {
  const certs = new LocalCertificates(`${makeTempDir('local-tls')}/tls`, now);
  const first = await certs.memberFiles('demo-0', '127.0.0.23');
  assert.ok(first.ok);
  const before = readFileSync(first.value.certFile, 'utf8');
  const again = await certs.memberFiles('demo-0', '127.0.0.23');
  assert.ok(again.ok);
  assert.equal(readFileSync(again.value.certFile, 'utf8'), before);
  const moved = await certs.memberFiles('demo-0', '127.0.0.99');
  assert.ok(moved.ok);
  const after = new X509Certificate(readFileSync(moved.value.certFile));
  assert.notEqual(after.toString(), before);
  assert.equal(after.subjectAltName, 'IP Address:127.0.0.99, DNS:localhost');
});

async function handshake(port: number, opts: { ca: Buffer; cert?: Buffer; key?: Buffer }): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port, ...opts }, () => {
      s.once('data', (d: Buffer) => {
        resolve(d.toString());
        s.end();
      });
    });
    s.on('error', (err: NodeJS.ErrnoException) => resolve(`error: ${err.code ?? err.message}`));
    s.on('end', () => resolve('closed'));
  });
}

void test('mutual TLS works with them: the operator certificate is accepted, none is refused', async () => {
  const certs = new LocalCertificates(`${makeTempDir('local-tls')}/tls`, now);
  const m = await certs.memberFiles('demo-0', '127.0.0.1');
  const op = await certs.operatorAccess();
  assert.ok(m.ok && op.ok);
  const server: Server = createServer(
    { cert: readFileSync(m.value.certFile), key: readFileSync(m.value.keyFile), ca: readFileSync(m.value.caFile), requestCert: true, rejectUnauthorized: true },
    (socket) => socket.end(`hello ${socket.getPeerCertificate().subject.CN}`),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  try {
    assert.equal(await handshake(port, { ca: op.value.ca, cert: op.value.cert, key: op.value.key }), 'hello kvstore-operator');
    assert.notEqual(await handshake(port, { ca: op.value.ca }), 'hello kvstore-operator');
  } finally {
    server.close();
  }
});
