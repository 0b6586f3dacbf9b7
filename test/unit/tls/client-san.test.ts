/** The peer client SAN check (client-san.ts) with an injected resolver. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientSanProblem, parseSans } from '../../../server/tls/client-san.js';

const hosts: Record<string, readonly string[]> = { localhost: ['127.0.0.1', '::1'], 'peer.example': ['10.1.2.3'] };
const resolve = (name: string): Promise<readonly string[]> =>
  hosts[name] !== undefined ? Promise.resolve(hosts[name]) : Promise.reject(new Error(`lookup ${name}: no such host`));

void test('SAN text is split into DNS names and IPs', () => {
  assert.deepEqual(parseSans('DNS:localhost, IP Address:127.0.0.5, IP Address:0:0:0:0:0:0:0:1'), { dns: ['localhost'], ips: ['127.0.0.5', '0:0:0:0:0:0:0:1'] });
  assert.deepEqual(parseSans(undefined), { dns: [], ips: [] });
});

void test('the remote address must be an IP SAN or resolve from a DNS SAN; no SANs pass', async () => {
  assert.equal(await clientSanProblem(undefined, '127.0.0.9', resolve), undefined);
  assert.equal(await clientSanProblem('IP Address:127.0.0.9', '127.0.0.9', resolve), undefined);
  assert.equal(await clientSanProblem('IP Address:127.0.0.9', '::ffff:127.0.0.9', resolve), undefined);
  assert.equal(await clientSanProblem('IP Address:0:0:0:0:0:0:0:1', '::1', resolve), undefined);
  assert.equal(await clientSanProblem('DNS:localhost, IP Address:127.0.0.9', '127.0.0.1', resolve), undefined);
  assert.equal(await clientSanProblem('IP Address:127.0.0.9', '127.0.0.1', resolve), 'x509: certificate is valid for 127.0.0.9, not 127.0.0.1');
  assert.equal(await clientSanProblem('DNS:peer.example', '127.0.0.1', resolve), 'tls: "127.0.0.1" does not match any of DNSNames ["peer.example"]');
  assert.equal(
    await clientSanProblem('DNS:missing.example', '127.0.0.1', resolve),
    'tls: "127.0.0.1" does not match any of DNSNames ["missing.example"] (lookup missing.example: no such host)',
  );
});
