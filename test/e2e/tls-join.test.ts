/**
 * Membership over peer TLS, for each server kind: a second member is added to a one-member
 * cluster whose client and peer URLs are https (mutual TLS on both); it joins with
 * --initial-cluster-state=existing (kvstore takes its identity from the cluster's peer
 * `/members` over TLS), catches up, and serves what was written before it joined.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { etcdctl, reserveAddress, serverKinds, startMember, type Member, type MemberAddress, type ServerKind } from '../support/processes.js';
import { issueCertificate, makeTlsFiles, type TlsFiles } from '../support/tls-certs.js';

function secure(a: MemberAddress): MemberAddress {
  return { ...a, clientUrl: `https://${a.host}:${a.clientPort}`, peerUrl: `https://${a.host}:${a.peerPort}` };
}

async function startTls(kind: ServerKind, address: MemberAddress, files: TlsFiles, cert: { cert: string; key: string }, initialCluster: string, state: 'new' | 'existing'): Promise<Member> {
  return startMember(kind, {
    address,
    initialCluster,
    initialClusterState: state,
    waitReady: false,
    args: [
      `--cert-file=${cert.cert}`, `--key-file=${cert.key}`, '--client-cert-auth', `--trusted-ca-file=${files.caCert}`,
      `--peer-cert-file=${cert.cert}`, `--peer-key-file=${cert.key}`, '--peer-client-cert-auth', `--peer-trusted-ca-file=${files.caCert}`,
    ],
  });
}

async function until(what: string, member: Member, probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; ; i++) {
    if (await probe()) return;
    if (i > 120 || !member.running) assert.fail(`${what}\n${member.logs().slice(-3000)}`);
    await sleep(250);
  }
}

for (const kind of serverKinds()) {
  void describe(`${kind}: a member joins over peer TLS`, () => {
    const members: Member[] = [];
    after(async () => {
      await Promise.all(members.map((m) => m.kill9()));
    });

    void it('member add with an https peer URL; the new member joins and serves earlier writes', async () => {
      const a = secure(await reserveAddress(`${kind}-tls-join-a`));
      const b = secure(await reserveAddress(`${kind}-tls-join-b`));
      const files = await makeTlsFiles([]);
      const cert = await issueCertificate(files, `${kind}-members`, 'kvstore member', [a.host, b.host]);
      const ctl = ['--cacert', files.caCert, '--cert', files.clientCert, '--key', files.clientKey, '--dial-timeout=2s', '--command-timeout=5s'];

      const first = await startTls(kind, a, files, cert, `${a.name}=${a.peerUrl}`, 'new');
      members.push(first);
      await until('first member ready', first, async () => (await etcdctl(a.clientUrl, [...ctl, 'put', 'before-join', 'v'])).code === 0);

      const add = await etcdctl(a.clientUrl, [...ctl, 'member', 'add', b.name, `--peer-urls=${b.peerUrl}`]);
      assert.equal(add.code, 0, add.stderr);
      const second = await startTls(kind, b, files, cert, `${a.name}=${a.peerUrl},${b.name}=${b.peerUrl}`, 'existing');
      members.push(second);
      await until('second member serving the earlier write', second, async () => {
        const r = await etcdctl(b.clientUrl, [...ctl, 'get', 'before-join', '--print-value-only']);
        return r.code === 0 && r.stdout === 'v\n';
      });
      const health = await etcdctl(a.clientUrl, [...ctl, 'endpoint', 'health', '--cluster']);
      assert.equal(health.code, 0, health.stderr);
      assert.match(health.stdout + health.stderr, new RegExp(`${b.clientUrl.replace(/\./g, '\\.')} is healthy`));
    });
  });
}
