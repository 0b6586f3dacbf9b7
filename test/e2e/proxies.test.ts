/**
 * `gateway start` and `grpc-proxy start`, kvstore's and etcd 3.4's, side by side in front of
 * the same kvstore member, driven by etcdctl 3.4:
 * - the gateway (a TCP proxy) whose first endpoint is dead: every connection still reaches the
 *   live member (the dead one is skipped), and etcdctl prints what it prints through etcd's;
 * - the gRPC proxy: put, get, a transaction, a watch, leases, member list, and with auth on a
 *   user's token passing through it; every output equal to the one through etcd's proxy;
 * - a client certificate with a Common Name is refused by both with the same message and code.
 * Waits are bounded; nothing is timed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { etcdctl, eventually, freePorts, spawnEtcdctl, startKvstore, stopAll, type Member } from '../support/processes.js';
import { runToEnd, startProxy, type ProxyProcess } from '../support/proxy-process.js';
import { issueCertificate, makeTlsFiles } from '../support/tls-certs.js';

const BINARIES = ['etcd', 'kvstore'] as const;
type Binary = (typeof BINARIES)[number];

/** etcdctl through `endpoint`; stdout, or the error line, with the binary's key prefix made neutral. */
async function through(endpoint: string, prefix: string, args: readonly string[]): Promise<string> {
  const r = await etcdctl(endpoint, args.map((a) => a.replaceAll('@', prefix)));
  const text = r.code === 0 ? r.stdout : `exit ${r.code}: ${r.stderr.split('\n').filter((l) => l.startsWith('Error')).join('\n')}`;
  return text.replaceAll(prefix, '@');
}

void describe('gateway and grpc-proxy: kvstore\'s and etcd\'s in front of one member', () => {
  let member: Member;
  const gateways = new Map<Binary, { endpoint: string; p: ProxyProcess }>();
  const grpcProxies = new Map<Binary, { endpoint: string; p: ProxyProcess }>();

  before(async () => {
    member = await startKvstore();
    const [dead, ...ports] = await freePorts('127.0.0.1', 5);
    for (const [i, b] of BINARIES.entries()) {
      const gw = `127.0.0.1:${ports[i]!}`;
      gateways.set(b, { endpoint: gw, p: await startProxy(b, ['gateway', 'start', `--listen-addr=${gw}`, `--endpoints=127.0.0.1:${dead!},${member.clientUrl}`], 'ready to proxy client requests') });
      const gp = `127.0.0.1:${ports[i + 2]!}`;
      grpcProxies.set(b, { endpoint: gp, p: await startProxy(b, ['grpc-proxy', 'start', `--listen-addr=${gp}`, `--endpoints=${member.endpoint}`], 'started gRPC proxy') });
    }
  });
  after(stopAll);

  void it('the gateway skips a dead endpoint: every call reaches the member, as through etcd\'s', async () => {
    const seen = new Map<Binary, string[]>();
    for (const b of BINARIES) {
      const { endpoint } = gateways.get(b)!;
      const prefix = `gw-${b}/`;
      const out: string[] = [];
      for (let i = 0; i < 4; i++) out.push(await through(endpoint, prefix, ['put', `@k${i}`, `v${i}`]));
      out.push(await through(endpoint, prefix, ['get', '@', '--prefix']));
      seen.set(b, out);
    }
    assert.deepEqual(seen.get('kvstore'), seen.get('etcd'));
    assert.equal(seen.get('kvstore')![4], '@k0\nv0\n@k1\nv1\n@k2\nv2\n@k3\nv3\n');
    assert.match(gateways.get('kvstore')!.p.output(), /"msg":"deactivated endpoint"/);
  });

  void it('the gRPC proxy forwards unary calls, transactions, leases and member list as etcd\'s does', async () => {
    const script: string[][] = [
      ['put', '@a', '1'],
      ['put', '@b', '2', '--prev-kv'],
      ['get', '@', '--prefix', '--keys-only'],
      ['del', '@b'],
      ['member', 'list', '-w', 'simple'],
      ['get', '@nothing'],
    ];
    const outs = new Map<Binary, string[]>();
    for (const b of BINARIES) {
      const { endpoint } = grpcProxies.get(b)!;
      const prefix = `gp-${b}/`;
      const out: string[] = [];
      for (const step of script) out.push((await through(endpoint, prefix, step)).replace(/"Revision" : \d+/, '"Revision" : N').replace(/"RaftTerm" : \d+/, '"RaftTerm" : N'));
      const txn = await etcdctl(endpoint, ['txn'], { input: `value("${prefix}a") = "1"\n\nput ${prefix}t yes\n\nput ${prefix}t no\n\n` });
      out.push(txn.stdout.replaceAll(prefix, '@'));
      const lease = await etcdctl(endpoint, ['lease', 'grant', '60']);
      const id = /lease ([0-9a-f]+) granted/.exec(lease.stdout)?.[1];
      assert.ok(id !== undefined, lease.stdout + lease.stderr);
      out.push((await etcdctl(endpoint, ['lease', 'timetolive', id])).stdout.replace(id, 'ID').replace(/remaining\(\d+s\)/, 'remaining(Ns)'));
      out.push((await etcdctl(endpoint, ['lease', 'revoke', id])).stdout.replace(id, 'ID'));
      outs.set(b, out);
    }
    assert.deepEqual(outs.get('kvstore'), outs.get('etcd'));
    assert.equal(outs.get('kvstore')![0], 'OK\n');
  });

  void it('a watch through the gRPC proxy gets the events of writes made elsewhere', async () => {
    for (const b of BINARIES) {
      const prefix = `watch-${b}/`;
      const w = spawnEtcdctl(grpcProxies.get(b)!.endpoint, ['watch', prefix, '--prefix']);
      try {
        await eventually(`the watch through ${b}'s proxy sees the put`, async () => {
          await etcdctl(member.endpoint, ['put', `${prefix}x`, 'seen']);
          return w.stdout().includes(`PUT\n${prefix}x\nseen\n`) ? true : undefined;
        });
      } finally {
        await w.stop('SIGINT');
      }
    }
  });

  void it('with auth on, the caller\'s token passes through the gRPC proxy; without one the member refuses, as through etcd\'s', async () => {
    await etcdctl(member.endpoint, ['user', 'add', 'root', '--new-user-password=rootpw']);
    await etcdctl(member.endpoint, ['user', 'grant-role', 'root', 'root']);
    await etcdctl(member.endpoint, ['auth', 'enable']);
    try {
      const outs = new Map<Binary, string[]>();
      for (const b of BINARIES) {
        const { endpoint } = grpcProxies.get(b)!;
        const prefix = `auth-${b}/`;
        outs.set(b, [
          await through(endpoint, prefix, ['put', '@k', 'v', '--user=root:rootpw']),
          await through(endpoint, prefix, ['get', '@k', '--user=root:rootpw']),
          await through(endpoint, prefix, ['get', '@k']),
          await through(endpoint, prefix, ['put', '@k', 'v', '--user=root:wrong']),
        ]);
      }
      assert.deepEqual(outs.get('kvstore'), outs.get('etcd'));
      assert.deepEqual(outs.get('kvstore')!.slice(0, 2), ['OK\n', '@k\nv\n']);
    } finally {
      await etcdctl(member.endpoint, ['auth', 'disable', '--user=root:rootpw']);
    }
  });

  void it('a client certificate with a Common Name is refused by both, with the same message and code', async () => {
    const files = await makeTlsFiles(['127.0.0.1']);
    const cert = { ...(await issueCertificate(files, 'named', 'example2.com', ['127.0.0.1'])), ca: files.caCert };
    const results = new Map<Binary, { code: number | null; line: string | undefined }>();
    for (const b of BINARIES) {
      const r = await runToEnd(b, ['grpc-proxy', 'start', '--cert', cert.cert, '--key', cert.key, '--cacert', cert.ca, '--listen-addr=127.0.0.1:0']);
      results.set(b, { code: r.code, line: r.output.split('\n').find((l) => l.startsWith('cert has non empty Common Name')) });
    }
    assert.deepEqual(results.get('kvstore'), results.get('etcd'));
    assert.deepEqual(results.get('kvstore'), { code: 1, line: 'cert has non empty Common Name (example2.com)' });
  });
});
