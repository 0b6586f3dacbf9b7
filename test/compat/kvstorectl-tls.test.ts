/**
 * kvstorectl vs etcdctl 3.4 over TLS, against the real etcd 3.4 serving https client URLs with
 * certificates made by openssl (test/support/tls-certs.ts): a server certificate for the
 * member's own 127.x address, and a client certificate, both from one CA.
 *
 * Each invocation runs with etcdctl, then with kvstorectl, against the same member; the exit
 * code, stdout and stderr must be equal after masking (revisions, durations, raft positions).
 * Cases: --cacert; --insecure-skip-tls-verify (alone it configures no TLS in etcdctl 3.4, so the
 * dial fails; with --insecure-transport=false it works without a CA); no CA (context deadline
 * exceeded after the dial/command timeouts); client-certificate auth (with --cert/--key, and
 * without them); bad certificate flags (missing files, a cert without its key: exit 128).
 * Plus the client library (createClient with tls options): put, get and watch over TLS.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from '../../ctl/client/index.js';
import { etcdctl, mask, reserveAddress, startMember, type Member } from '../support/processes.js';
import { makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';
import { ALWAYS_EXTRA, REVISION_EXTRA } from '../unit/ctl/support/ctl-masks.js';
import { runTool } from '../unit/ctl/support/kvstorectl-runner.js';

const STATUS_HTTPS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(https:\/\/<addr>), [0-9a-f]{1,16}, ([^,]+), [^,]+, (true|false), (true|false), \d+, \d+, \d+, /gm, '$1, <id>, $2, <size>, $3, $4, <term>, <index>, <index>, '],
];

/** One real etcd 3.4 member with an https client URL and `extra` flags; ready once etcdctl reaches it. */
async function startTlsEtcd(name: string, extra: (files: TlsFiles) => readonly string[]): Promise<{ member: Member; files: TlsFiles; endpoint: string }> {
  const plain = await reserveAddress(name);
  const files = await makeTlsFiles([plain.host]);
  const address = { ...plain, clientUrl: `https://${plain.host}:${plain.clientPort}` };
  const member = await startMember('etcd', {
    address,
    waitReady: false,
    args: [`--cert-file=${files.serverCert}`, `--key-file=${files.serverKey}`, ...extra(files)],
  });
  const endpoint = address.clientUrl;
  const creds = ['--cacert', files.caCert, '--cert', files.clientCert, '--key', files.clientKey];
  for (let i = 0; ; i++) {
    const r = await etcdctl(endpoint, [...creds, '--dial-timeout=1s', 'endpoint', 'health']);
    if (r.code === 0) break;
    if (i > 60 || !member.running) throw new Error(`etcd over TLS not ready: ${r.stderr}\n${member.logs().slice(-2000)}`);
    await sleep(250);
  }
  return { member, files, endpoint };
}

/** Runs `args` with etcdctl then kvstorectl against `endpoint`; their masked results must be equal. */
async function sameAsEtcdctl(endpoint: string, files: TlsFiles, args: readonly string[]): Promise<string> {
  const texts: string[] = [];
  for (const tool of ['etcdctl', 'kvstorectl'] as const) {
    const r = await runTool(tool, endpoint, args);
    const m = (s: string): string => mask(s, { paths: [files.dir], revisions: true, extra: [...REVISION_EXTRA, ...ALWAYS_EXTRA, ...STATUS_HTTPS] });
    texts.push(`exit ${r.code}\n--- stdout\n${m(r.stdout)}--- stderr\n${m(r.stderr)}`);
  }
  assert.equal(texts[1], texts[0], `kvstorectl ${args.join(' ')}`);
  return texts[0];
}

void describe('kvstorectl over TLS against etcd 3.4 (server certificate only)', () => {
  let etcd: { member: Member; files: TlsFiles; endpoint: string };
  before(async () => {
    etcd = await startTlsEtcd('tls-server', () => []);
  });
  after(async () => {
    await etcd?.member.kill9();
  });

  void it('--cacert: put, get, endpoint health and status', async () => {
    const ca = ['--cacert', etcd.files.caCert];
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'put', 'tls-key', 'v1']), /^exit 0\n--- stdout\nOK\n/);
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'get', 'tls-key']), /^exit 0\n--- stdout\ntls-key\nv1\n/);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'get', 'tls-key', '-w', 'json']);
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'endpoint', 'health']), /is healthy: successfully committed proposal/);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'endpoint', 'status']);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'endpoint', 'health', '--cluster']);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'endpoint', 'status', '--cluster']);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...ca, 'member', 'list']);
    // The same through the environment variables.
    for (const tool of ['etcdctl', 'kvstorectl'] as const) {
      const prefix = tool === 'etcdctl' ? 'ETCDCTL' : 'KVSTORECTL';
      const r = await runTool(tool, etcd.endpoint, ['get', 'tls-key', '--print-value-only'], { env: { [`${prefix}_CACERT`]: etcd.files.caCert } });
      assert.deepEqual([r.code, r.stdout], [0, 'v1\n'], `${tool}: ${r.stderr}`);
    }
  });

  void it('--insecure-skip-tls-verify: alone no TLS is configured (dial fails); with --insecure-transport=false it works without a CA', async () => {
    const failed = await sameAsEtcdctl(etcd.endpoint, etcd.files, ['--dial-timeout=2s', '--command-timeout=2s', '--insecure-skip-tls-verify', 'get', 'tls-key']);
    assert.match(failed, /^exit 1\n[^]*Error: context deadline exceeded\n$/);
    const skip = ['--insecure-transport=false', '--insecure-skip-tls-verify'];
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...skip, 'put', 'skip-key', 'v2']), /^exit 0\n--- stdout\nOK\n/);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...skip, 'get', 'skip-key']);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...skip, 'endpoint', 'health']);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...skip, 'endpoint', 'status']);
  });

  void it('no CA: the server certificate is not trusted, context deadline exceeded', async () => {
    const t = ['--dial-timeout=2s', '--command-timeout=2s'];
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...t, 'get', 'tls-key']), /^exit 1\n[^]*Error: context deadline exceeded\n$/);
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...t, 'put', 'k', 'v']), /^exit 1\n/);
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...t, 'endpoint', 'health']), /is unhealthy: failed to commit proposal: context deadline exceeded\n[^]*Error: unhealthy cluster\n$/);
  });

  void it('bad certificate flags: missing files and a certificate without its key (exit 128, Go texts)', async () => {
    const dir = etcd.files.dir;
    const cases: readonly (readonly string[])[] = [
      ['--cacert', `${dir}/missing-ca.crt`, 'get', 'k'],
      ['--cacert', `${dir}/missing-ca.crt`, 'endpoint', 'health'],
      ['--cert', `${dir}/missing.crt`, '--key', etcd.files.clientKey, 'put', 'k', 'v'],
      ['--cert', etcd.files.clientCert, '--key', `${dir}/missing.key`, 'endpoint', 'status'],
      ['--cert', etcd.files.clientCert, 'get', 'k'],
      ['--key', etcd.files.clientKey, 'get', 'k'],
    ];
    for (const args of cases) assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, args), /^exit 128\n--- stdout\n--- stderr\nError: (open <tmp>\/missing|KeyFile and CertFile must both be present)/);
  });
});

void describe('kvstorectl over TLS against etcd 3.4 with client certificate auth', () => {
  let etcd: { member: Member; files: TlsFiles; endpoint: string };
  before(async () => {
    etcd = await startTlsEtcd('tls-mutual', (f) => ['--client-cert-auth', `--trusted-ca-file=${f.caCert}`]);
  });
  after(async () => {
    await etcd?.member.kill9();
  });

  void it('--cert --key --cacert works; without --cert it fails as etcdctl does', async () => {
    const full = ['--cacert', etcd.files.caCert, '--cert', etcd.files.clientCert, '--key', etcd.files.clientKey];
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...full, 'put', 'mtls', 'v3']), /^exit 0\n--- stdout\nOK\n/);
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...full, 'get', 'mtls']), /^exit 0\n--- stdout\nmtls\nv3\n/);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...full, 'endpoint', 'health']);
    await sameAsEtcdctl(etcd.endpoint, etcd.files, [...full, 'endpoint', 'status']);
    const noCert = ['--cacert', etcd.files.caCert, '--dial-timeout=2s', '--command-timeout=2s'];
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...noCert, 'get', 'mtls']), /^exit 1\n[^]*Error: context deadline exceeded\n$/);
    assert.match(await sameAsEtcdctl(etcd.endpoint, etcd.files, [...noCert, 'endpoint', 'health']), /is unhealthy/);
  });

  void it('client library: createClient with tls options does put, get and watch', async () => {
    const client: Client = createClient({
      endpoints: [etcd.endpoint],
      dialTimeoutMs: 5000,
      commandTimeoutMs: 5000,
      tls: { ca: readFileSync(etcd.files.caCert), cert: readFileSync(etcd.files.clientCert), key: readFileSync(etcd.files.clientKey) },
    });
    try {
      const put = await client.kv.put('lib-tls', 'one');
      assert.ok(put.ok, put.ok ? '' : put.error.message);
      const got = await client.kv.get('lib-tls');
      assert.ok(got.ok, got.ok ? '' : got.error.message);
      assert.equal(got.value.kvs[0]?.value.toString(), 'one');
      const w = client.watch('lib-tls', { createdNotify: true, startRevision: put.value.header?.revision });
      const seen: string[] = [];
      let created = false;
      for await (const r of w) {
        assert.ok(r.ok, r.ok ? '' : r.error.message);
        if (r.value.created) {
          created = true;
          assert.ok((await client.kv.put('lib-tls', 'two')).ok);
          continue;
        }
        seen.push(...r.value.events.map((e) => e.kv?.value.toString() ?? ''));
        if (seen.length === 2) w.close();
      }
      assert.ok(created);
      assert.deepEqual(seen, ['one', 'two']);
    } finally {
      client.close();
    }
  });
});
