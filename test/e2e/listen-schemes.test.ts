/**
 * Listener configurations from etcd 3.4's own e2e suite, kvstore against the real etcd 3.4 (each
 * case runs on every kind of serverKinds()):
 * - `--listen-client-urls http://h:p,https://h:p` (TestV2CurlClientBoth): one port serves HTTP
 *   in plaintext and over TLS, and gRPC over TLS (kvstore also plaintext gRPC, which etcd 3.4's
 *   port refuses);
 * - a client port already in use: the start fails and the process exits non-zero on its own;
 * - `unix://name:port` peer URLs (TestEtcdUnixPeers): the member starts, its peer socket is the
 *   file `name:port` in its working directory and answers the peer `/version`;
 * - `--peer-cert-allowed-cn` (TestEtcdPeerCNAuth): a peer dialling with a certificate of another
 *   CN fails its TLS handshake with "remote error: tls: bad certificate"; the allowed CN is served.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { remoteAlertText } from '../../server/tls/tls-alert-text.js';
import { etcdctl, makeTempDir, reserveAddress, serverKinds, startMember } from '../support/processes.js';
import { issueCertificate, makeTlsFiles } from '../support/tls-certs.js';

/** GET `url`, with `tls` options for https; the status and body, or the error. */
function get(url: string, tls: object = {}, socketPath?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const onResponse = (res: IncomingMessage): void => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
    };
    const req = url.startsWith('https:') ? httpsRequest(url, { ...tls, agent: false }, onResponse) : httpRequest(url, { agent: false, socketPath }, onResponse);
    req.on('error', reject);
    req.end();
  });
}

for (const kind of serverKinds()) {
  void describe(`${kind}: listener configurations of etcd's e2e suite`, () => {
    void it('http:// and https:// on one host:port: HTTP and gRPC, plaintext and over TLS', async () => {
      const plain = await reserveAddress(`${kind}-both`);
      const files = await makeTlsFiles([plain.host]);
      const https = `https://${plain.endpoint}`;
      const both = `${plain.clientUrl},${https}`;
      const member = await startMember(kind, {
        address: plain,
        args: [`--listen-client-urls=${both}`, `--advertise-client-urls=${both}`, '--cert-file', files.serverCert, '--key-file', files.serverKey, '--trusted-ca-file', files.caCert],
      });
      try {
        const tls = { ca: readFileSync(files.caCert), cert: readFileSync(files.clientCert), key: readFileSync(files.clientKey) };
        const overTls = await get(`${https}/version`, tls);
        const inPlain = await get(`${plain.clientUrl}/version`);
        assert.equal(overTls.status, 200);
        assert.equal(inPlain.body, overTls.body);
        const creds = ['--cacert', files.caCert, '--cert', files.clientCert, '--key', files.clientKey];
        assert.equal((await etcdctl(https, [...creds, 'put', 'both', 'schemes'])).code, 0);
        const r = await etcdctl(https, [...creds, 'get', 'both', '--print-value-only']);
        assert.equal(r.stdout.trim(), 'schemes', r.stderr);
        // etcd 3.4 hands plaintext gRPC on such a port to its TLS gRPC server ("tls: first record
        // does not look like a TLS handshake"): only kvstore serves it.
        if (kind === 'kvstore') {
          const p = await etcdctl(plain.clientUrl, ['get', 'both', '--print-value-only']);
          assert.equal(p.stdout.trim(), 'schemes', p.stderr);
        }
      } finally {
        await member.kill9();
      }
    });

    void it('a client port already in use fails the start: the process exits non-zero', async () => {
      const plain = await reserveAddress(`${kind}-in-use`);
      const blocker = createServer();
      await new Promise<void>((r) => blocker.listen(plain.clientPort, plain.host, r));
      try {
        const member = await startMember(kind, { address: plain, waitReady: false });
        const exit = await Promise.race([member.exited(), sleep(30_000).then(() => 'running' as const)]);
        if (exit === 'running') {
          await member.kill9();
          assert.fail(`${kind} kept running with its client port in use:\n${member.logs().slice(-2000)}`);
        }
        assert.notEqual(exit, 0, member.logs().slice(-2000));
        assert.match(member.logs(), /address already in use/);
      } finally {
        blocker.close();
      }
    });

    void it('unix:// peer URLs: the member serves, its peer socket is the file host:port', async () => {
      const plain = await reserveAddress(`${kind}-unix`);
      const cwd = makeTempDir(`${kind}-unix-cwd`);
      const peerUrl = `unix://peer.unix:${plain.peerPort}`;
      const member = await startMember(kind, {
        address: { ...plain, peerUrl },
        cwd,
        args: [`--listen-peer-urls=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`, `--initial-cluster=${plain.name}=${peerUrl}`],
      });
      try {
        const socket = join(cwd, `peer.unix:${plain.peerPort}`);
        assert.ok(existsSync(socket), 'the peer socket file');
        const version = await get('http://peer/version', {}, socket);
        assert.equal(version.status, 200);
        assert.match(version.body, /"etcdserver":"3\.\d+\.\d+"/);
        assert.equal((await etcdctl(plain.clientUrl, ['put', 'unix', 'peers'])).code, 0);
      } finally {
        await member.kill9();
      }
    });

    void it('--peer-cert-allowed-cn: another CN fails the peer handshake with bad_certificate; the allowed CN is served', async () => {
      const plain = await reserveAddress(`${kind}-peer-cn`);
      const files = await makeTlsFiles([plain.host]);
      const allowed = await issueCertificate(files, 'peer-allowed', 'example.com', [plain.host]);
      const other = await issueCertificate(files, 'peer-other', 'example2.com', [plain.host]);
      const peerUrl = `https://${plain.host}:${plain.peerPort}`;
      const member = await startMember(kind, {
        address: { ...plain, peerUrl },
        args: [
          `--listen-peer-urls=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`, `--initial-cluster=${plain.name}=${peerUrl}`,
          '--peer-cert-file', allowed.cert, '--peer-key-file', allowed.key, '--peer-trusted-ca-file', files.caCert,
          '--peer-client-cert-auth', '--peer-cert-allowed-cn', 'example.com',
        ],
      });
      try {
        const ca = readFileSync(files.caCert);
        const refused = await new Promise<string>((resolve) => {
          // As a peer's dialler: etcd (TLS 1.3) sends its alert right after the handshake, kvstore
          // (TLS 1.2) inside it; either way the first read fails with the alert.
          const s = connect({ host: plain.host, port: plain.peerPort, ca, cert: readFileSync(other.cert), key: readFileSync(other.key), servername: 'localhost' });
          s.on('secureConnect', () => s.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n'));
          s.on('data', () => resolve('answered'));
          s.on('error', (e) => resolve(remoteAlertText(e) ?? e.message));
          s.on('close', () => resolve('closed without an alert'));
        });
        assert.equal(refused, 'remote error: tls: bad certificate');
        const served = await get(`${peerUrl}/version`, { ca, cert: readFileSync(allowed.cert), key: readFileSync(allowed.key), servername: 'localhost' });
        assert.equal(served.status, 200);
      } finally {
        await member.kill9();
      }
    });
  });
}
