// The YAML configuration file (--config-file / KVSTORE_CONFIG_FILE).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failure, load, run } from './helpers.js';

const SAMPLE = `
name: infra0
data-dir: /var/lib/kvstore
wal-dir:
snapshot-count: 10000
heartbeat-interval: 100
election-timeout: 1000
quota-backend-bytes: 0
listen-peer-urls: http://10.0.0.1:2380
listen-client-urls: http://10.0.0.1:2379,http://127.0.0.1:2379
max-snapshots: 5
max-wals: 5
initial-advertise-peer-urls: http://10.0.0.1:2380
advertise-client-urls: http://10.0.0.1:2379
initial-cluster: infra0=http://10.0.0.1:2380,infra1=http://10.0.0.2:2380
initial-cluster-token: 'etcd-cluster-1'
initial-cluster-state: 'new'
strict-reconfig-check: false
enable-v2: true
enable-pprof: false
proxy: 'off'
client-transport-security:
  cert-file: /c.crt
  key-file: /c.key
  client-cert-auth: true
  trusted-ca-file: /ca.crt
  auto-tls: false
peer-transport-security:
  cert-file: /p.crt
  allowed-cn: peer
  auto-tls: false
debug: false
logger: zap
log-outputs: [stderr]
force-new-cluster: false
auto-compaction-mode: periodic
auto-compaction-retention: "1"
grpc-keepalive-min-time: 10000000000
experimental-watch-progress-notify-interval: 2000000000
`;

void test('a full file (etcd.conf.yml.sample shape)', () => {
  const { config, warnings } = run(['--config-file=/etc/kv.yml'], {}, { '/etc/kv.yml': SAMPLE });
  assert.equal(config.configFile, '/etc/kv.yml');
  assert.equal(config.name, 'infra0');
  assert.equal(config.dataDir, '/var/lib/kvstore');
  assert.equal(config.walDir, '');
  assert.equal(config.snapshotCount, 10000);
  assert.deepEqual(config.listenClientUrls.map((u) => u.host), ['10.0.0.1:2379', '127.0.0.1:2379']);
  assert.deepEqual(config.initialCluster, [
    { name: 'infra0', peerUrls: ['http://10.0.0.1:2380'] },
    { name: 'infra1', peerUrls: ['http://10.0.0.2:2380'] },
  ]);
  assert.equal(config.initialClusterToken, 'etcd-cluster-1');
  assert.equal(config.strictReconfigCheck, false);
  assert.equal(config.enableV2, true);
  assert.equal(config.clientTransportSecurity.certFile, '/c.crt');
  assert.equal(config.clientTransportSecurity.clientCertAuth, true);
  assert.equal(config.peerTransportSecurity.certFile, '/p.crt');
  assert.equal(config.peerTransportSecurity.allowedCn, 'peer');
  assert.deepEqual(config.logOutputs, ['stderr']);
  assert.deepEqual(config.autoCompaction, { mode: 'periodic', retentionMs: 3_600_000 });
  assert.equal(config.grpcKeepaliveMinTimeMs, 10_000);
  assert.equal(config.experimentalWatchProgressNotifyIntervalMs, 2000);
  assert.ok(warnings.some((w) => w.startsWith('scheme is HTTP while key and cert files are present; ignoring key and cert files')));
  assert.ok(warnings.includes('flag --enable-v2 is deprecated in 3.5'));
});

void test('with a config file, other flags and env are ignored (and named in a warning)', () => {
  const { config, warnings } = run(['--name=flag', '--config-file', '/c.yml'], { KVSTORE_DATA_DIR: '/env', KVSTORE_NAME: 'env' }, { '/c.yml': 'name: file\n' });
  assert.equal(config.name, 'file');
  assert.equal(config.dataDir, 'file.kvstore');
  assert.deepEqual(warnings.slice(0, 2), [
    'config file "/c.yml" is used; command-line flags ignored: --name',
    'config file "/c.yml" is used; environment variables ignored: KVSTORE_NAME, KVSTORE_DATA_DIR',
  ]);
});

void test('KVSTORE_CONFIG_FILE selects the file too', () => {
  const { config } = run([], { KVSTORE_CONFIG_FILE: '/c.yml' }, { '/c.yml': 'name: viaenv\n' });
  assert.equal(config.name, 'viaenv');
  assert.equal(config.configFile, '/c.yml');
});

void test('listen-client-urls without advertise-client-urls is fine in a file (the default stays)', () => {
  const { config } = run(['--config-file=/c.yml'], {}, { '/c.yml': 'listen-client-urls: http://0.0.0.0:2379\n' });
  assert.deepEqual(config.advertiseClientUrls, ['http://localhost:2379']);
});

void test('an empty file gives the defaults', () => {
  assert.equal(run(['--config-file=/c.yml'], {}, { '/c.yml': '' }).config.name, 'default');
});

void test('unknown keys warn', () => {
  const { warnings } = run(['--config-file=/c.yml'], {}, { '/c.yml': 'nmae: x\ncert-file: /top-level-is-not-a-key\nclient-transport-security:\n  certfile: y\n' });
  assert.deepEqual(warnings, [
    'unknown key "nmae" in config file "/c.yml" ignored',
    'unknown key "cert-file" in config file "/c.yml" ignored',
    'unknown key "client-transport-security.certfile" in config file "/c.yml" ignored',
  ]);
});

void test('log-outputs may be a list or a comma-separated string; cipher-suites a list', () => {
  assert.deepEqual(run(['--config-file=/c'], {}, { '/c': 'log-outputs: stdout,/tmp/a.log\n' }).config.logOutputs, ['stdout', '/tmp/a.log']);
  assert.deepEqual(run(['--config-file=/c'], {}, { '/c': 'cipher-suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_RSA_WITH_AES_128_CBC_SHA]\n' }).config.tlsProtocol.ciphers, 'ECDHE-RSA-AES128-GCM-SHA256:AES128-SHA');
});

const ERRORS: ReadonlyArray<readonly [string, string]> = [
  ['name: [a]\n', 'invalid value ["a"] for key "name" in config file "/c": must be a string'],
  ['snapshot-count: "100"\n', 'invalid value "100" for key "snapshot-count" in config file "/c": must be an integer'],
  ['enable-v2: yes\n', 'invalid value "yes" for key "enable-v2" in config file "/c": must be a boolean (true or false)'],
  ['grpc-keepalive-min-time: 5s\n', 'invalid value "5s" for key "grpc-keepalive-min-time" in config file "/c": must be an integer number of nanoseconds'],
  ['initial-cluster-state: old\n', 'invalid value "old" for key "initial-cluster-state" in config file "/c": must be one of new, existing'],
  [
    'auto-compaction-retention: 1\n',
    'invalid value 1 for key "auto-compaction-retention" in config file "/c": must be a string since 3.3: quote a number of hours ("1") or give a duration ("30m")',
  ],
  ['client-transport-security:\n  client-cert-auth: "true"\n', 'invalid value "true" for key "client-transport-security.client-cert-auth" in config file "/c": must be a boolean (true or false)'],
  ['- a\n- b\n', 'config file "/c" must hold a mapping of keys to values'],
  ['heartbeat-interval: 300\n', '--election-timeout[1000ms] should be at least as 5 times as --heartbeat-interval[300ms]'],
];

for (const [text, message] of ERRORS) {
  void test(`file ${JSON.stringify(text)} fails: ${message}`, () => {
    assert.equal(failure(['--config-file=/c'], {}, { '/c': text }), message);
  });
}

void test('unreadable and malformed files are errors', () => {
  assert.equal(failure(['--config-file=/missing.yml']), `cannot read config file "/missing.yml": ENOENT: no such file or directory, open '/missing.yml'`);
  assert.match(failure(['--config-file=/c'], {}, { '/c': 'name: [unclosed\n' }), /^cannot parse config file "\/c": /);
  assert.match(failure(['--config-file=/c'], {}, { '/c': 'name: a\nname: b\n' }), /^cannot parse config file "\/c": .*unique/);
});

void test('3.2 reads auto-compaction-retention as an integer number of hours', () => {
  const env = { KVSTORE_SERVER_VERSION: '3.2.32' };
  assert.deepEqual(run(['--config-file=/c'], env, { '/c': 'auto-compaction-retention: 2\n' }).config.autoCompaction, {
    mode: 'periodic',
    retentionMs: 7_200_000,
  });
  assert.equal(
    failure(['--config-file=/c'], env, { '/c': 'auto-compaction-retention: "2"\n' }),
    'invalid value "2" for key "auto-compaction-retention" in config file "/c": must be an integer number of hours in 3.2',
  );
});

void test('--version still wins with a config file', () => {
  assert.equal(load(['--config-file=/nope', '--version']).kind, 'version');
});
