// spec.tls in the member pods: https URLs for the secured listeners, the certificate flags
// naming the mounted Secret files, the Secret volumes and mounts, TCP probes for a TLS client
// listener; nothing of it without spec.tls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KvstoreClusterSpecInput } from '../../../operator/api/types.js';
import { memberArgs } from '../../../operator/controller/builders/member-args.js';
import { buildPodTemplate } from '../../../operator/controller/builders/pod-template.js';
import { memberClientURL, memberPeerURL } from '../../../operator/controller/builders/names.js';
import { loadConfig } from '../../../server/config/load-config.js';
import { makeCluster } from './support.js';

const CLIENT = { secretName: 'demo-client-tls' };
const PEER = { secretName: 'demo-peer-tls' };
const OPERATOR = { secretName: 'demo-operator-tls' };

const CLIENT_FLAGS = [
  '--cert-file=/etc/kvstore/tls/client/tls.crt',
  '--key-file=/etc/kvstore/tls/client/tls.key',
  '--trusted-ca-file=/etc/kvstore/tls/client/ca.crt',
  '--client-cert-auth=true',
];
const PEER_FLAGS = [
  '--peer-cert-file=/etc/kvstore/tls/peer/tls.crt',
  '--peer-key-file=/etc/kvstore/tls/peer/tls.key',
  '--peer-trusted-ca-file=/etc/kvstore/tls/peer/ca.crt',
  '--peer-client-cert-auth=true',
];

/** [case, spec.tls, client scheme, peer scheme, TLS flags, volumes]. */
const CASES: readonly (readonly [string, KvstoreClusterSpecInput['tls'], string, string, readonly string[], readonly string[]])[] = [
  ['no TLS', undefined, 'http', 'http', [], []],
  ['client and peer', { client: CLIENT, peer: PEER, operator: OPERATOR }, 'https', 'https', [...CLIENT_FLAGS, ...PEER_FLAGS], ['tls-client:demo-client-tls', 'tls-peer:demo-peer-tls']],
  ['client only', { client: CLIENT, operator: OPERATOR }, 'https', 'http', CLIENT_FLAGS, ['tls-client:demo-client-tls']],
  ['peer only', { peer: PEER }, 'http', 'https', PEER_FLAGS, ['tls-peer:demo-peer-tls']],
];

for (const [name, tls, clientScheme, peerScheme, flags, volumes] of CASES) {
  void test(`member TLS: ${name}`, () => {
    const cluster = makeCluster(tls === undefined ? {} : { tls });
    const args = memberArgs(cluster, { members: 3, version: '3.4.27' });
    assert.ok(args.includes(`--listen-client-urls=${clientScheme}://0.0.0.0:2379`));
    assert.ok(args.includes(`--advertise-client-urls=${clientScheme}://$(POD_NAME).demo-peer.prod.svc:2379`));
    assert.ok(args.includes(`--listen-peer-urls=${peerScheme}://0.0.0.0:2380`));
    assert.ok(args.includes(`--initial-advertise-peer-urls=${peerScheme}://$(POD_NAME).demo-peer.prod.svc:2380`));
    const initial = args.find((a) => a.startsWith('--initial-cluster='))?.split('=').slice(1).join('=') ?? '';
    assert.ok(initial.split(',').every((e) => e.includes(`=${peerScheme}://`)), initial);
    assert.deepEqual(args.filter((a) => /^--(peer-)?(cert-file|key-file|trusted-ca-file|client-cert-auth)=/.test(a)), flags);
    assert.equal(memberClientURL(cluster, 'demo-0'), `${clientScheme}://demo-0.demo-peer.prod.svc:2379`);
    assert.equal(memberPeerURL(cluster, 'demo-0'), `${peerScheme}://demo-0.demo-peer.prod.svc:2380`);

    const pod = buildPodTemplate(cluster, { members: 3, version: '3.4.27' }).spec;
    const c = pod?.containers[0];
    const secretVolumes = (pod?.volumes ?? []).filter((v) => v.secret !== undefined);
    assert.deepEqual(secretVolumes.map((v) => `${v.name}:${v.secret?.secretName}`), volumes);
    assert.ok(secretVolumes.every((v) => v.secret?.defaultMode === 0o440));
    const mounts = (c?.volumeMounts ?? []).filter((m) => m.name.startsWith('tls-'));
    assert.deepEqual(mounts.map((m) => `${m.name}:${m.mountPath}:${m.readOnly}`), volumes.map((v) => {
      const n = v.split(':')[0] ?? '';
      return `${n}:/etc/kvstore/tls/${n.slice(4)}:true`;
    }));
    if (clientScheme === 'https') {
      assert.deepEqual(c?.readinessProbe?.tcpSocket, { port: 'client' });
      assert.deepEqual(c?.livenessProbe?.tcpSocket, { port: 'client' });
      assert.equal(c?.readinessProbe?.httpGet, undefined);
    } else {
      assert.equal(c?.readinessProbe?.httpGet?.path, '/health');
      assert.equal(c?.livenessProbe?.httpGet?.path, '/version');
    }
  });
}

void test('the operator certificate is not mounted into member pods', () => {
  const pod = buildPodTemplate(makeCluster({ tls: { client: CLIENT, operator: OPERATOR } }), { members: 3, version: '3.4.27' }).spec;
  assert.ok(!JSON.stringify(pod).includes(OPERATOR.secretName));
});

function load(version: string): ReturnType<typeof loadConfig> {
  const cluster = makeCluster({ version, tls: { client: CLIENT, peer: PEER, operator: OPERATOR } });
  const argv = memberArgs(cluster, { members: 3, version }).map((a) => a.replaceAll('$(POD_NAME)', 'demo-1'));
  return loadConfig(argv, { POD_NAME: 'demo-1', KVSTORE_SERVER_VERSION: version, KVSTORE_DATA_DIR: '/var/lib/kvstore/data' }, () => {
    throw new Error('no config file');
  });
}

/** A server build without TLS listeners refuses every https URL with this text. */
const probe = load('3.4.27');
const noServerTls = probe.kind === 'error' && probe.message.includes('TLS is not supported by kvstore') ? 'this server build has no TLS listeners' : false;

for (const version of ['3.2.32', '3.3.27', '3.4.27', '3.5.17']) {
  void test(`kvstore ${version} accepts the TLS member command line`, { skip: noServerTls }, () => {
    const outcome = load(version);
    assert.equal(outcome.kind, 'run', JSON.stringify(outcome));
    if (outcome.kind !== 'run') return;
    assert.deepEqual(outcome.config.advertiseClientUrls, ['https://demo-1.demo-peer.prod.svc:2379']);
  });
}
