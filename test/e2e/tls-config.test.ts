/**
 * TLS configuration at start, kvstore against the real etcd 3.4 (each case runs on every kind of
 * serverKinds(); kvstore's message must contain etcd's error text):
 * - an https client URL without --cert-file/--key-file (and without --auto-tls) is refused;
 * - an https peer URL without --peer-cert-file/--peer-key-file is refused;
 * - an unknown --cipher-suites name is refused;
 * - a certificate file that does not exist is refused;
 * - --auto-tls and --peer-auto-tls make self-signed certificates in <data-dir>/fixtures/client
 *   and fixtures/peer; etcdctl reaches the member with --insecure-skip-tls-verify;
 * - a YAML config file's client-transport-security / peer-transport-security blocks serve
 *   mutual TLS on both ports.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { etcdctl, makeTempDir, reserveAddress, serverKinds, startMember, type ServerKind } from '../support/processes.js';
import { makeTlsFiles } from '../support/tls-certs.js';

interface Failure {
  readonly code: number | null;
  readonly logs: string;
}

/** Starts a member of `kind` with the URL schemes and flags given; it must exit on its own. */
async function failedStart(kind: ServerKind, schemes: { client: string; peer: string }, args: readonly string[]): Promise<Failure> {
  const plain = await reserveAddress(`${kind}-tls-config`);
  const address = { ...plain, clientUrl: `${schemes.client}://${plain.endpoint}`, peerUrl: `${schemes.peer}://${plain.host}:${plain.peerPort}` };
  const member = await startMember(kind, { address, waitReady: false, args });
  const exit = await Promise.race([member.exited(), sleep(30_000).then(() => 'running' as const)]);
  if (exit === 'running') {
    await member.kill9();
    assert.fail(`${kind} kept running with ${args.join(' ')}`);
  }
  return { code: exit, logs: member.logs() };
}

const CASES: ReadonlyArray<{ readonly title: string; readonly schemes: { client: string; peer: string }; readonly args: readonly string[]; readonly etcdText: RegExp }> = [
  {
    title: 'an https client URL without a certificate',
    schemes: { client: 'https', peer: 'http' },
    args: [],
    etcdText: /TLS key\/cert \(--cert-file, --key-file\) must be provided for client url https:\/\/127\.[0-9.]+:\d+ with HTTPS scheme/,
  },
  {
    title: 'an https peer URL without a certificate',
    schemes: { client: 'http', peer: 'https' },
    args: [],
    etcdText: /cannot listen on TLS for 127\.[0-9.]+:\d+: KeyFile and CertFile are not presented/,
  },
  {
    title: 'an unknown cipher suite',
    schemes: { client: 'http', peer: 'http' },
    args: ['--cipher-suites=TLS_NOPE'],
    etcdText: /unexpected TLS cipher suite \\?"TLS_NOPE\\?"/,
  },
  {
    title: 'a certificate file that does not exist',
    schemes: { client: 'https', peer: 'http' },
    args: ['--cert-file=/nonexistent/server.crt', '--key-file=/nonexistent/server.key'],
    etcdText: /open \/nonexistent\/server\.crt: no such file or directory/,
  },
];

for (const kind of serverKinds()) {
  void describe(`${kind}: TLS configuration at start`, () => {
    for (const c of CASES) {
      void it(`${c.title} is refused with etcd's message`, async () => {
        const failure = await failedStart(kind, c.schemes, c.args);
        assert.notEqual(failure.code, 0, failure.logs);
        assert.match(failure.logs, c.etcdText, failure.logs.slice(-2000));
      });
    }

    void it('--auto-tls and --peer-auto-tls: self-signed certificates in the data dir; etcdctl works skipping verification', async () => {
      const plain = await reserveAddress(`${kind}-auto-tls`);
      const address = { ...plain, clientUrl: `https://${plain.endpoint}`, peerUrl: `https://${plain.host}:${plain.peerPort}` };
      const member = await startMember(kind, { address, waitReady: false, args: ['--auto-tls', '--peer-auto-tls'] });
      try {
        const skip = ['--insecure-transport=false', '--insecure-skip-tls-verify', '--dial-timeout=1s', '--command-timeout=3s'];
        for (let i = 0; ; i++) {
          const r = await etcdctl(address.clientUrl, [...skip, 'put', 'auto', 'tls']);
          if (r.code === 0) break;
          if (i > 80 || !member.running) assert.fail(`${kind} with auto TLS not reachable: ${r.stderr}\n${member.logs().slice(-2000)}`);
          await sleep(250);
        }
        for (const side of ['client', 'peer']) {
          for (const file of ['cert.pem', 'key.pem']) assert.ok(existsSync(join(member.dataDir, 'fixtures', side, file)), `${side}/${file}`);
        }
        const verified = await etcdctl(address.clientUrl, ['--insecure-transport=false', '--dial-timeout=1s', '--command-timeout=2s', 'get', 'auto']);
        assert.equal(verified.code, 1, 'a self-signed certificate does not verify');
      } finally {
        await member.kill9();
      }
    });

    void it('YAML client-transport-security and peer-transport-security blocks serve mutual TLS', async () => {
      const plain = await reserveAddress(`${kind}-tls-yaml`);
      const files = await makeTlsFiles([plain.host]);
      const clientUrl = `https://${plain.endpoint}`;
      const peerUrl = `https://${plain.host}:${plain.peerPort}`;
      const dir = makeTempDir(`${kind}-tls-yaml`);
      const file = join(dir, 'config.yml');
      const security = `  cert-file: ${files.serverCert}\n  key-file: ${files.serverKey}\n  client-cert-auth: true\n  trusted-ca-file: ${files.caCert}`;
      writeFileSync(
        file,
        [
          `name: ${plain.name}`,
          `data-dir: ${join(dir, 'data')}`,
          `listen-client-urls: ${clientUrl}`,
          `advertise-client-urls: ${clientUrl}`,
          `listen-peer-urls: ${peerUrl}`,
          `initial-advertise-peer-urls: ${peerUrl}`,
          `initial-cluster: ${plain.name}=${peerUrl}`,
          'client-transport-security:',
          security,
          'peer-transport-security:',
          security,
          '',
        ].join('\n'),
      );
      const address = { ...plain, clientUrl, peerUrl };
      const member = await startMember(kind, { address, waitReady: false, args: [`--config-file=${file}`] });
      try {
        const creds = ['--cacert', files.caCert, '--cert', files.clientCert, '--key', files.clientKey, '--dial-timeout=1s', '--command-timeout=3s'];
        for (let i = 0; ; i++) {
          const r = await etcdctl(clientUrl, [...creds, 'put', 'yaml', 'tls']);
          if (r.code === 0) break;
          if (i > 80 || !member.running) assert.fail(`${kind} with a YAML TLS config not reachable: ${r.stderr}\n${member.logs().slice(-2000)}`);
          await sleep(250);
        }
        const refused = await etcdctl(clientUrl, ['--cacert', files.caCert, '--dial-timeout=1s', '--command-timeout=2s', 'get', 'yaml']);
        assert.equal(refused.code, 1, 'client-cert-auth from the YAML file requires a certificate');
      } finally {
        await member.kill9();
      }
    });
  });
}
