// A cluster with spec.tls on Kubernetes (in-process operator, test API server, real kvstore
// pods): certificates issued as cert-manager would (one CA; member certificates for the pods'
// names and addresses, the operator's client certificate) in Secrets with tls.crt, tls.key and
// ca.crt; the pods mount them and serve https client and peer URLs with client-certificate
// authentication; the operator observes, snapshots and upgrades 3.4.0 → 3.5.0 over mutual TLS.
// A client without a certificate is refused; the data written before the upgrade is all there.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createClient } from '../../../ctl/client/index.js';
import { issueCa, issueLeaf } from '../../../operator/runtime/local/x509-issue.js';
import { eventually } from '../../support/eventually.js';
import { condition, NS, startFixture, type KubeFixture } from './fixture.js';

const BOUND = 120_000;
const PODS = ['sec-0', 'sec-1', 'sec-2'];
let fx: KubeFixture;

before(async () => {
  fx = await startFixture();
  await fx.startOperator();
});
after(async () => {
  await fx.close();
});

void test('spec.tls: members on https with client certificates from Secrets; an upgrade 3.4.0 → 3.5.0 over mutual TLS', { timeout: 4 * BOUND }, async () => {
  // Pods placed first, so the member certificate can name their (test) addresses too.
  for (const p of PODS) await fx.runner.place(p, 'sec-peer', [2379, 2380], NS);
  const hosts = PODS.map((p) => fx.runner.addresses.addressOf(NS, p).host);
  const now = Date.now();
  const ca = await issueCa('test issuer', 2, now);
  // A member checks a peer's client certificate against the connection's source address (as
  // etcd does): here peers dial from 127.0.0.1, which reverse-resolves to localhost.
  const member = await issueLeaf(ca, { commonName: 'sec member', ips: hosts, dnsNames: ['*.sec-peer.default.svc', 'sec-client.default.svc', 'localhost'], server: true, validDays: 2 }, now);
  const operator = await issueLeaf(ca, { commonName: 'kvstore-operator', server: false, validDays: 2 }, now);
  await fx.createSecret('sec-member-tls', { 'tls.crt': member.cert, 'tls.key': member.key, 'ca.crt': ca.cert });
  await fx.createSecret('sec-operator-tls', { 'tls.crt': operator.cert, 'tls.key': operator.key, 'ca.crt': ca.cert });

  await fx.createCluster('sec', {
    size: 3,
    version: '3.4.0',
    tls: { client: { secretName: 'sec-member-tls' }, peer: { secretName: 'sec-member-tls' }, operator: { secretName: 'sec-operator-tls' } },
    upgrade: { v2WaitSeconds: 1, memberHealthTimeoutSeconds: 120 },
  });
  const running = await eventually('Running at 3.4.0', async () => {
    const c = await fx.getCluster('sec');
    return c?.status?.phase === 'Running' && c.status.readyMembers === '3/3' && c.status.clusterVersion === '3.4.0' ? c : undefined;
  }, { timeoutMs: BOUND, describe: () => fx.describe(PODS) });
  assert.deepEqual(running.status?.members.map((m) => m.clientURL), PODS.map((p) => `https://${p}.sec-peer.default.svc:2379`));

  // The pods run with the mounted certificates.
  const pod = (await (await fetch(`${fx.api.url}/api/v1/namespaces/${NS}/pods/sec-0`)).json()) as { spec: { volumes: { name: string; secret?: { secretName: string } }[]; containers: { args: string[] }[] } };
  assert.deepEqual(pod.spec.volumes.filter((v) => v.secret !== undefined).map((v) => `${v.name}:${v.secret?.secretName}`), ['tls-client:sec-member-tls', 'tls-peer:sec-member-tls']);
  assert.ok(pod.spec.containers[0]?.args.includes('--peer-client-cert-auth=true'));

  const urls = (await fx.endpoints(PODS)).map((e) => `https://${e}`);
  const good = createClient({ endpoints: urls, dialTimeoutMs: 3000, commandTimeoutMs: 5000, tls: { ca: Buffer.from(ca.cert), cert: Buffer.from(operator.cert), key: Buffer.from(operator.key) } });
  const bare = createClient({ endpoints: urls, dialTimeoutMs: 3000, commandTimeoutMs: 5000, tls: { ca: Buffer.from(ca.cert) } });
  try {
    for (let i = 0; i < 30; i++) assert.ok((await good.kv.put(`sec/${i}`, `v${i}`)).ok);
    assert.equal((await bare.kv.get('sec/1')).ok, false, 'no client certificate: refused');

    await fx.patchSpec('sec', { version: '3.5.0' });
    const done = await eventually('upgrade Completed at cluster version 3.5.0', async () => {
      const c = await fx.getCluster('sec');
      return c?.status?.upgrade?.state === 'Completed' && c.status.clusterVersion === '3.5.0' ? c : undefined;
    }, { timeoutMs: 3 * BOUND, describe: () => fx.describe(PODS) });
    assert.equal(condition(done.status, 'Available')?.status, 'True');
    const snap = done.status?.upgrade?.snapshot;
    assert.ok(snap !== undefined && existsSync(snap.file), 'the leader snapshot streamed over mutual TLS is on the snapshot volume');
    assert.equal(readFileSync(snap.file).length, snap.size);
    const events = await fx.eventsWith('sec', 'UpgradeCompleted');
    assert.equal(events.filter((e) => e.reason === 'MemberUpgraded').length, 3, events.map((e) => e.reason).join(' '));
    assert.ok(!events.some((e) => e.reason === 'MemberAccessUnavailable'));

    const read = await good.kv.get('sec/', { prefix: true });
    assert.ok(read.ok);
    assert.equal(read.value.kvs.length, 30);
  } finally {
    good.close();
    bare.close();
  }
});

void test('a missing operator Secret: the pass fails with a Warning event naming it; nothing is created', { timeout: BOUND }, async () => {
  await fx.createCluster('nosec', {
    size: 1,
    version: '3.4.0',
    tls: { client: { secretName: 'nosec-member-tls' }, operator: { secretName: 'nosec-operator-tls' } },
  });
  const events = await fx.eventsWith('nosec', 'MemberAccessUnavailable');
  const e = events.find((x) => x.reason === 'MemberAccessUnavailable');
  assert.equal(e?.type, 'Warning');
  assert.match(e?.message ?? '', /Secret nosec-operator-tls \(the operator's client certificate\) not found/);
  const sts = await fetch(`${fx.api.url}/apis/apps/v1/namespaces/${NS}/statefulsets/nosec`);
  assert.equal(sts.status, 404);
});
