/**
 * `--listen-metrics-urls` (ETCD-FACTS §5.3), kvstore and the real etcd 3.4 side by side: one
 * member with a plaintext client URL and two extra metrics URLs, one http and one https (the
 * client certificate files): both serve `/metrics` and `/health`, any other path is the Go
 * mux's 404, and the answers (status, health body, 404 body) are the same for both servers.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { describe, it } from 'node:test';
import { etcdVersion, freePorts, reserveAddress, startMember, type ServerKind } from '../support/processes.js';
import { issueCertificate, makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';

function get(url: string, ca?: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const done = (res: import('node:http').IncomingMessage): void => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    };
    const req = url.startsWith('https:') ? httpsRequest(url, { ca, agent: false, timeout: 10_000 }, done) : httpRequest(url, { agent: false, timeout: 10_000 }, done);
    req.on('error', reject);
    req.end();
  });
}

async function story(kind: ServerKind, files: TlsFiles): Promise<string[]> {
  const address = await reserveAddress(`${kind}-metrics`);
  const [plainPort, tlsPort] = await freePorts(address.host, 2);
  const plain = `http://${address.host}:${plainPort}`;
  const secure = `https://${address.host}:${tlsPort}`;
  const server = await issueCertificate(files, `${kind}-metrics`, 'kvstore server', [address.host]);
  const env: Record<string, string> = kind === 'kvstore' ? { KVSTORE_SERVER_VERSION: etcdVersion() } : {};
  const m = await startMember(kind, { address, env, args: [`--listen-metrics-urls=${plain},${secure}`, `--cert-file=${server.cert}`, `--key-file=${server.key}`] });
  const ca = readFileSync(files.caCert);
  const out: string[] = [];
  try {
    for (const base of [plain, secure]) {
      const scheme = base.split(':')[0];
      const metrics = await get(`${base}/metrics`, ca);
      out.push(`${scheme} /metrics ${metrics.status} has_leader=${/^(?:etcd|kvstore)_server_has_leader 1$/m.test(metrics.body)}`);
      const health = await get(`${base}/health`, ca);
      out.push(`${scheme} /health ${health.status} ${health.body.trim()}`);
      const other = await get(`${base}/version`, ca);
      out.push(`${scheme} /version ${other.status} ${JSON.stringify(other.body)}`);
    }
  } finally {
    await m.kill9();
  }
  return out;
}

void describe(`--listen-metrics-urls: kvstore vs etcd ${etcdVersion()}`, () => {
  void it('http and https metrics listeners serve /metrics and /health only', async () => {
    const files = await makeTlsFiles(['127.0.0.1']);
    const [ref, sub] = await Promise.all([story('etcd', files), story('kvstore', files)]);
    assert.deepEqual(sub, ref);
    assert.deepEqual(ref.slice(0, 3), ['http /metrics 200 has_leader=true', 'http /health 200 {"health":"true"}', 'http /version 404 "404 page not found\\n"']);
  });
});
