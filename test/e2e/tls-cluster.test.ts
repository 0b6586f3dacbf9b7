/**
 * A 3-member cluster with mutual TLS on the client and the peer ports, for each server kind
 * (kvstore, and the real etcd 3.4 as the reference: every case must hold for both):
 * - etcdctl with a client certificate works; without one, or over plaintext, it is refused;
 * - `etcdctl endpoint health --cluster` over TLS (the Go client's `:authority` relay for kvstore);
 * - `/health` and `/metrics` over https, with HTTP/1.1 and with HTTP/2 (curl's ALPN choice);
 * - the etcd3 npm client over TLS; `kvstorectl snapshot save` over TLS (then `snapshot status`);
 * - certificate rotation without restart: one member's certificate files are replaced by a new
 *   certificate from the same CA; the next connection is served the new certificate;
 * - a peer presenting a certificate from an unknown CA is refused by the peer port, while the
 *   cluster's own CA passes.
 * Each member has its own copy of the server certificate (so rotating one touches no other).
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, renameSync } from 'node:fs';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { join } from 'node:path';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Etcd3 } from 'etcd3';
import { etcdctl, initialClusterOf, makeTempDir, reserveAddress, serverKinds, startMember, type Member, type MemberAddress, type ServerKind } from '../support/processes.js';
import { getOverHttp2 } from '../support/member-http.js';
import { issueCertificate, makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';
import { kvstorectl } from '../unit/ctl/support/kvstorectl-runner.js';

interface TlsMember {
  readonly member: Member;
  readonly address: MemberAddress;
  readonly certFile: string;
  readonly keyFile: string;
}

/** Starts a mutual-TLS cluster of `kind` (https client and peer URLs) and waits until every member answers etcdctl. */
async function startTlsCluster(kind: ServerKind, files: TlsFiles): Promise<TlsMember[]> {
  const plain = [await reserveAddress(`${kind}-tls-1`), await reserveAddress(`${kind}-tls-2`), await reserveAddress(`${kind}-tls-3`)];
  const addresses = plain.map((a) => ({ ...a, clientUrl: `https://${a.host}:${a.clientPort}`, peerUrl: `https://${a.host}:${a.peerPort}` }));
  const initialCluster = initialClusterOf(addresses);
  const server = await issueCertificate(files, `${kind}-server`, 'kvstore server', addresses.map((a) => a.host));
  const members = await Promise.all(
    addresses.map(async (address): Promise<TlsMember> => {
      const dir = makeTempDir(`${address.name}-certs`);
      const certFile = join(dir, 'server.crt');
      const keyFile = join(dir, 'server.key');
      copyFileSync(server.cert, certFile);
      copyFileSync(server.key, keyFile);
      const member = await startMember(kind, {
        address,
        initialCluster,
        waitReady: false,
        args: [
          `--cert-file=${certFile}`, `--key-file=${keyFile}`, '--client-cert-auth', `--trusted-ca-file=${files.caCert}`,
          `--peer-cert-file=${certFile}`, `--peer-key-file=${keyFile}`, '--peer-client-cert-auth', `--peer-trusted-ca-file=${files.caCert}`,
        ],
      });
      return { member, address, certFile, keyFile };
    }),
  );
  for (const m of members) {
    for (let i = 0; ; i++) {
      const r = await etcdctl(m.address.clientUrl, [...credentials(files), '--dial-timeout=1s', '--command-timeout=3s', 'endpoint', 'health']);
      if (r.code === 0) break;
      if (i > 80 || !m.member.running) throw new Error(`${m.address.name} not ready over TLS: ${r.stderr}\n${m.member.logs().slice(-3000)}`);
      await sleep(250);
    }
  }
  return members;
}

function credentials(files: TlsFiles): string[] {
  return ['--cacert', files.caCert, '--cert', files.clientCert, '--key', files.clientKey];
}

/** An https GET with the client certificate, over HTTP/1.1 (ALPN http/1.1). */
function getHttp1(url: string, files: TlsFiles): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca: readFileSync(files.caCert), cert: readFileSync(files.clientCert), key: readFileSync(files.clientKey), agent: false, ALPNProtocols: ['http/1.1'] } as RequestOptions, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** An https GET with the client certificate over HTTP/2 (ALPN h2), as curl does by default. */
function getHttp2(origin: string, path: string, files: TlsFiles): Promise<{ status: number; body: string }> {
  return getOverHttp2(origin, path, { ca: files.caCert, cert: files.clientCert, key: files.clientKey });
}

/** The certificate served on host:port to a client presenting `cert`/`key`, or the handshake error. */
function servedCertificate(host: string, port: number, ca: string, cert: string, key: string): Promise<PeerCertificate | Error> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, ca: readFileSync(ca), cert: readFileSync(cert), key: readFileSync(key), ALPNProtocols: ['http/1.1'] }, () => {
      const served = socket.getPeerCertificate();
      // TLS 1.3: a refused client certificate arrives as an alert after the client's handshake
      // completed, so read until the server answers or closes.
      socket.write(`GET /version HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      socket.once('data', () => {
        socket.destroy();
        resolve(served);
      });
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('timeout')));
    socket.on('error', (err) => resolve(err));
    socket.on('close', () => resolve(new Error('closed without an answer')));
  });
}

for (const kind of serverKinds()) {
  void describe(`${kind}: 3 members with mutual TLS on client and peer ports`, () => {
    let files: TlsFiles;
    let members: TlsMember[];
    before(async () => {
      files = await makeTlsFiles([]);
      members = await startTlsCluster(kind, files);
    });
    after(async () => {
      await Promise.all((members ?? []).map((m) => m.member.kill9()));
    });

    void it('etcdctl with a client certificate works; without one, or over plaintext, it is refused', async () => {
      const [m1, m2] = members;
      const put = await etcdctl(m1!.address.clientUrl, [...credentials(files), 'put', 'tls-key', 'v1']);
      assert.deepEqual([put.code, put.stdout], [0, 'OK\n'], put.stderr);
      const get = await etcdctl(m2!.address.clientUrl, [...credentials(files), 'get', 'tls-key', '--print-value-only']);
      assert.deepEqual([get.code, get.stdout], [0, 'v1\n'], get.stderr);
      const t = ['--dial-timeout=2s', '--command-timeout=2s'];
      const noCert = await etcdctl(m1!.address.clientUrl, ['--cacert', files.caCert, ...t, 'get', 'tls-key']);
      assert.equal(noCert.code, 1);
      assert.match(noCert.stderr, /Error: context deadline exceeded\n$/);
      const plaintext = await etcdctl(`http://${m1!.address.endpoint}`, [...t, 'get', 'tls-key']);
      assert.equal(plaintext.code, 1);
      assert.match(plaintext.stderr, /Error: context deadline exceeded\n$/);
    });

    void it('etcdctl endpoint health --cluster over TLS reaches every member', async () => {
      const r = await etcdctl(members[0]!.address.clientUrl, [...credentials(files), 'endpoint', 'health', '--cluster']);
      assert.equal(r.code, 0, r.stderr);
      // etcdctl 3.4 reports each endpoint's health on stderr.
      for (const m of members) assert.match(r.stdout + r.stderr, new RegExp(`${m.address.clientUrl.replace(/\./g, '\\.')} is healthy`));
    });

    void it('/health and /metrics over https, with HTTP/1.1 and HTTP/2', async () => {
      const m = members[0]!;
      const h1 = await getHttp1(`${m.address.clientUrl}/health`, files);
      assert.equal(h1.status, 200);
      assert.equal((JSON.parse(h1.body) as { health: string }).health, 'true');
      const metrics = await getHttp1(`${m.address.clientUrl}/metrics`, files);
      assert.equal(metrics.status, 200);
      assert.match(metrics.body, /^(etcd|kvstore)_server_has_leader 1$/m);
      const h2 = await getHttp2(m.address.clientUrl, '/health', files);
      assert.equal(h2.status, 200);
      assert.equal((JSON.parse(h2.body) as { health: string }).health, 'true');
    });

    void it('the etcd3 npm client over TLS', async () => {
      const client = new Etcd3({
        hosts: members.map((m) => m.address.clientUrl),
        credentials: { rootCertificate: readFileSync(files.caCert), certChain: readFileSync(files.clientCert), privateKey: readFileSync(files.clientKey) },
      });
      try {
        await client.put('etcd3-tls').value('yes');
        assert.equal(await client.get('etcd3-tls').string(), 'yes');
      } finally {
        client.close();
      }
    });

    void it('kvstorectl snapshot save over TLS', async () => {
      const file = join(makeTempDir('tls-snapshot'), 'backup.db');
      const saved = await kvstorectl(members[1]!.address.clientUrl, [...credentials(files), 'snapshot', 'save', file], { timeoutMs: 60_000 });
      assert.equal(saved.code, 0, saved.stderr);
      assert.match(saved.stdout, /Snapshot saved at /);
      const status = await kvstorectl([], ['snapshot', 'status', file, '-w', 'json']);
      assert.equal(status.code, 0, status.stderr);
      assert.ok((JSON.parse(status.stdout) as { totalKey: number }).totalKey >= 1);
    });

    void it('a replaced certificate is served from the next connection on, without a restart', async () => {
      const m = members[2]!;
      const { host, clientPort } = m.address;
      const before = await servedCertificate(host, clientPort, files.caCert, files.clientCert, files.clientKey);
      assert.ok(!(before instanceof Error), String(before));
      const rotated = await issueCertificate(files, `${kind}-rotated`, 'kvstore server rotated', members.map((x) => x.address.host));
      // Both files are replaced by renames; the key first, so a handshake never sees the new certificate with the old key.
      copyFileSync(rotated.key, `${m.keyFile}.new`);
      copyFileSync(rotated.cert, `${m.certFile}.new`);
      renameSync(`${m.keyFile}.new`, m.keyFile);
      renameSync(`${m.certFile}.new`, m.certFile);
      const after = await servedCertificate(host, clientPort, files.caCert, files.clientCert, files.clientKey);
      assert.ok(!(after instanceof Error), String(after));
      assert.notEqual(after.serialNumber, before.serialNumber);
      assert.equal(after.subject.CN, 'kvstore server rotated');
      const peer = await servedCertificate(host, m.address.peerPort, files.caCert, files.clientCert, files.clientKey);
      assert.ok(!(peer instanceof Error), String(peer));
      assert.equal(peer.subject.CN, 'kvstore server rotated');
      const r = await etcdctl(m.address.clientUrl, [...credentials(files), 'put', 'after-rotation', 'v']);
      assert.equal(r.code, 0, r.stderr);
      const health = await etcdctl(members[0]!.address.clientUrl, [...credentials(files), 'endpoint', 'health', '--cluster']);
      assert.equal(health.code, 0, health.stderr);
    });

    void it('the peer port refuses a certificate from an unknown CA', async () => {
      const foreign = await makeTlsFiles([members[0]!.address.host]);
      const m = members[0]!;
      const refused = await servedCertificate(m.address.host, m.address.peerPort, files.caCert, foreign.clientCert, foreign.clientKey);
      assert.ok(refused instanceof Error, 'a client certificate from another CA must be refused');
      const own = await servedCertificate(m.address.host, m.address.peerPort, files.caCert, files.clientCert, files.clientKey);
      assert.ok(!(own instanceof Error), String(own));
    });
  });
}
