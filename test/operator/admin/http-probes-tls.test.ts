// /version, /health, /metrics of a member whose client listener asks for a client certificate:
// answered with the operator's certificate, a failure (not a throw, not "unhealthy") without it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { fetchHealth, fetchMetrics, fetchVersion } from '../../../operator/controller/admin/http-probes.js';
import { LocalCertificates } from '../../../operator/runtime/local/local-certificates.js';
import { makeTempDir } from '../../support/registry.js';

void test('https probes present the operator certificate', async () => {
  const certs = new LocalCertificates(`${makeTempDir('probe-tls')}/tls`, () => Date.now());
  const m = await certs.memberFiles('demo-0', '127.0.0.1');
  const op = await certs.operatorAccess();
  assert.ok(m.ok && op.ok);
  const server = createServer(
    { cert: readFileSync(m.value.certFile), key: readFileSync(m.value.keyFile), ca: readFileSync(m.value.caFile), requestCert: true, rejectUnauthorized: true },
    (req, res) => {
      if (req.url === '/version') res.end('{"etcdserver":"3.4.27","etcdcluster":"3.4.0"}');
      else if (req.url === '/health') res.end('{"health":"true"}');
      else res.end('kvstore_server_is_leader 1\n');
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    assert.deepEqual(await fetchVersion(url, 3000, undefined, op.value), { ok: true, value: { server: '3.4.27', cluster: '3.4.0' } });
    assert.deepEqual(await fetchHealth(url, 3000, undefined, op.value), { ok: true, value: true });
    assert.deepEqual(await fetchMetrics(url, 3000, undefined, op.value), { ok: true, value: { isLeader: true } });
    const bare = await fetchHealth(url, 3000, undefined, { ...op.value, cert: Buffer.alloc(0), key: Buffer.alloc(0) });
    assert.equal(bare.ok, false);
    if (!bare.ok) assert.match(bare.error, new RegExp(`^GET ${url}/health: `));
    const untrusted = await fetchHealth(url, 3000);
    assert.equal(untrusted.ok, false, 'the member certificate is not trusted without the CA');
  } finally {
    server.close();
    server.closeAllConnections();
  }
});
