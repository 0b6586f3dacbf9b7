import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialCluster, memberArgs, optionFlags } from '../../../operator/controller/builders/member-args.js';
import type { ServerOptions } from '../../../operator/api/types.js';
import { loadConfig } from '../../../server/config/load-config.js';
import { makeCluster } from './support.js';

void test('member args: name, URLs through the peer Service, all members, token, state', () => {
  assert.deepEqual(memberArgs(makeCluster(), { members: 3, version: '3.4.27' }), [
    '--name=$(POD_NAME)',
    '--initial-advertise-peer-urls=http://$(POD_NAME).demo-peer.prod.svc:2380',
    '--listen-peer-urls=http://0.0.0.0:2380',
    '--listen-client-urls=http://0.0.0.0:2379',
    '--advertise-client-urls=http://$(POD_NAME).demo-peer.prod.svc:2379',
    '--initial-cluster=demo-0=http://demo-0.demo-peer.prod.svc:2380,demo-1=http://demo-1.demo-peer.prod.svc:2380,demo-2=http://demo-2.demo-peer.prod.svc:2380',
    '--initial-cluster-token=demo-6f1c2a7e',
    '--initial-cluster-state=new',
  ]);
});

const CLUSTER_CASES = [
  ['1 member', 1, ['demo-0']],
  ['5 members', 5, ['demo-0', 'demo-1', 'demo-2', 'demo-3', 'demo-4']],
  ['7 members', 7, ['demo-0', 'demo-1', 'demo-2', 'demo-3', 'demo-4', 'demo-5', 'demo-6']],
] as const;

for (const [name, members, names] of CLUSTER_CASES) {
  void test(`--initial-cluster lists ${name}`, () => {
    const text = initialCluster(makeCluster(), members);
    assert.deepEqual(text.split(',').map((e) => e.split('=')[0]), names);
  });
}

void test('joining an existing cluster (scale-up) and a cluster without uid', () => {
  const args = memberArgs(makeCluster({}, { uid: null }), { members: 4, version: '3.5.0', initialClusterState: 'existing' });
  assert.ok(args.includes('--initial-cluster-state=existing'));
  assert.ok(args.includes('--initial-cluster-token=demo'));
  assert.ok(args.some((a) => a.startsWith('--initial-cluster=') && a.includes('demo-3=http://demo-3.demo-peer.prod.svc:2380')));
});

const ALL: ServerOptions = {
  autoCompactionMode: 'periodic',
  autoCompactionRetention: '1h',
  quotaBackendBytes: 8589934592,
  maxRequestBytes: 10485760,
  enableV2: true,
  logLevel: 'debug',
};

/** [version, options, flags]: each line gets the flags it accepts. */
const OPTION_CASES: readonly (readonly [string, ServerOptions, readonly string[]])[] = [
  ['3.5.0', {}, []],
  ['3.5.0', ALL, ['--auto-compaction-mode=periodic', '--auto-compaction-retention=1h', '--quota-backend-bytes=8589934592', '--max-request-bytes=10485760', '--enable-v2=true', '--log-level=debug']],
  ['3.4.27', { logLevel: 'warn', enableV2: false }, ['--enable-v2=false', '--log-level=warn']],
  ['3.3.27', ALL, ['--auto-compaction-mode=periodic', '--auto-compaction-retention=1h', '--quota-backend-bytes=8589934592', '--max-request-bytes=10485760', '--enable-v2=true', '--debug=true']],
  ['3.3.27', { logLevel: 'info' }, []],
  ['3.2.32', { ...ALL, autoCompactionRetention: '1' }, ['--auto-compaction-retention=1', '--quota-backend-bytes=8589934592', '--debug=true']],
];

for (const [version, options, flags] of OPTION_CASES) {
  void test(`option flags for ${version}: ${JSON.stringify(options)}`, () => {
    assert.deepEqual(optionFlags(options, version), flags);
  });
}

/** What Kubernetes does with `$(POD_NAME)` in args. */
const expand = (args: readonly string[], pod: string) => args.map((a) => a.replaceAll('$(POD_NAME)', pod));

for (const version of ['3.2.32', '3.3.27', '3.4.27', '3.5.17']) {
  void test(`kvstore ${version} accepts the member command line and env (warning at most of deprecations)`, () => {
    const options: ServerOptions = version.startsWith('3.2') ? { autoCompactionRetention: '2', quotaBackendBytes: 4294967296 } : { ...ALL, autoCompactionRetention: '1h' };
    const cluster = makeCluster({ version, size: 3, options });
    const argv = expand(memberArgs(cluster, { members: 3, version }), 'demo-1');
    const env = { POD_NAME: 'demo-1', KVSTORE_SERVER_VERSION: version, KVSTORE_DATA_DIR: '/var/lib/kvstore/data' };
    const outcome = loadConfig(argv, env, () => {
      throw new Error('no config file');
    });
    assert.equal(outcome.kind, 'run', JSON.stringify(outcome));
    if (outcome.kind !== 'run') return;
    // enable-v2 is deprecated in 3.5: the user asked for it, the member says so in its log.
    assert.deepEqual(outcome.warnings.filter((w) => !w.includes('deprecated')), []);
    const c = outcome.config;
    assert.equal(c.name, 'demo-1');
    assert.equal(c.dataDir, '/var/lib/kvstore/data');
    assert.equal(c.initialClusterToken, 'demo-6f1c2a7e');
    assert.deepEqual(c.initialCluster.map((m) => m.name), ['demo-0', 'demo-1', 'demo-2']);
    assert.deepEqual(c.advertiseClientUrls, ['http://demo-1.demo-peer.prod.svc:2379']);
  });
}
