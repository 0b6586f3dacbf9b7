// Flags → ServerConfig: defaults, one row per flag, and the cross-flag rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerConfig } from '../../../server/config/types.js';
import { failure, run } from './helpers.js';

void test('defaults (3.5)', () => {
  const { config, warnings } = run([]);
  assert.deepEqual(warnings, []);
  const plain = { ...config, listenClientUrls: config.listenClientUrls.map((u) => u.host), listenPeerUrls: config.listenPeerUrls.map((u) => u.host) };
  assert.deepEqual(
    {
      serverVersion: plain.serverVersion,
      minorVersion: plain.minorVersion,
      configFile: plain.configFile,
      name: plain.name,
      dataDir: plain.dataDir,
      walDir: plain.walDir,
      effectiveWalDir: plain.effectiveWalDir,
      listenClientUrls: plain.listenClientUrls,
      listenPeerUrls: plain.listenPeerUrls,
      advertiseClientUrls: plain.advertiseClientUrls,
      initialAdvertisePeerUrls: plain.initialAdvertisePeerUrls,
      initialCluster: plain.initialCluster,
      initialClusterToken: plain.initialClusterToken,
      initialClusterState: plain.initialClusterState,
      maxRequestBytes: plain.maxRequestBytes,
      maxTxnOps: plain.maxTxnOps,
      quotaBackendBytes: plain.quotaBackendBytes,
      effectiveQuotaBackendBytes: plain.effectiveQuotaBackendBytes,
      autoCompaction: plain.autoCompaction,
      logger: plain.logger,
      logLevel: plain.logLevel,
      logOutputs: plain.logOutputs,
      heartbeatIntervalMs: plain.heartbeatIntervalMs,
      electionTimeoutMs: plain.electionTimeoutMs,
      snapshotCount: plain.snapshotCount,
      enableV2: plain.enableV2,
      enableGrpcGateway: plain.enableGrpcGateway,
      preVote: plain.preVote,
      strictReconfigCheck: plain.strictReconfigCheck,
      experimentalWatchProgressNotifyIntervalMs: plain.experimentalWatchProgressNotifyIntervalMs,
      grpcKeepaliveMinTimeMs: plain.grpcKeepaliveMinTimeMs,
      grpcKeepaliveIntervalMs: plain.grpcKeepaliveIntervalMs,
      grpcKeepaliveTimeoutMs: plain.grpcKeepaliveTimeoutMs,
      maxConcurrentStreams: plain.maxConcurrentStreams,
      forceNewCluster: plain.forceNewCluster,
      enablePprof: plain.enablePprof,
      metrics: plain.metrics,
      authToken: plain.authToken,
      authTokenTtlSeconds: plain.authTokenTtlSeconds,
      bcryptCost: plain.bcryptCost,
      cors: plain.cors,
      hostWhitelist: plain.hostWhitelist,
      maxSnapshots: plain.maxSnapshots,
      maxWals: plain.maxWals,
    },
    {
      serverVersion: '3.5.0',
      minorVersion: '3.5',
      configFile: undefined,
      name: 'default',
      dataDir: 'default.kvstore',
      walDir: '',
      effectiveWalDir: 'default.kvstore/member/wal',
      listenClientUrls: ['localhost:2379'],
      listenPeerUrls: ['localhost:2380'],
      advertiseClientUrls: ['http://localhost:2379'],
      initialAdvertisePeerUrls: ['http://localhost:2380'],
      initialCluster: [{ name: 'default', peerUrls: ['http://localhost:2380'] }],
      initialClusterToken: 'etcd-cluster',
      initialClusterState: 'new',
      maxRequestBytes: 1572864,
      maxTxnOps: 128,
      quotaBackendBytes: 0,
      effectiveQuotaBackendBytes: 2147483648,
      autoCompaction: undefined,
      logger: 'zap',
      logLevel: 'info',
      logOutputs: ['default'],
      heartbeatIntervalMs: 100,
      electionTimeoutMs: 1000,
      snapshotCount: 100000,
      enableV2: false,
      enableGrpcGateway: true,
      preVote: true,
      strictReconfigCheck: true,
      experimentalWatchProgressNotifyIntervalMs: 600000,
      grpcKeepaliveMinTimeMs: 5000,
      grpcKeepaliveIntervalMs: 7_200_000,
      grpcKeepaliveTimeoutMs: 20_000,
      maxConcurrentStreams: 4294967295,
      forceNewCluster: false,
      enablePprof: false,
      metrics: 'basic',
      authToken: 'simple',
      authTokenTtlSeconds: 300,
      bcryptCost: 10,
      cors: ['*'],
      hostWhitelist: ['*'],
      maxSnapshots: 5,
      maxWals: 5,
    },
  );
});

/** [argv, field, expected value]: one row per flag that maps to a field. */
const ROWS: ReadonlyArray<readonly [readonly string[], keyof ServerConfig, unknown]> = [
  [['--name=infra0'], 'name', 'infra0'],
  [['--name=infra0'], 'dataDir', 'infra0.kvstore'],
  [['--data-dir=/var/lib/kv'], 'dataDir', '/var/lib/kv'],
  [['--data-dir=/var/lib/kv'], 'effectiveWalDir', '/var/lib/kv/member/wal'],
  [['--wal-dir=/wal'], 'walDir', '/wal'],
  [['--wal-dir=/wal'], 'effectiveWalDir', '/wal'],
  [['--snapshot-count=5000'], 'snapshotCount', 5000],
  [['--heartbeat-interval=200', '--election-timeout=2000'], 'heartbeatIntervalMs', 200],
  [['--election-timeout=5000'], 'electionTimeoutMs', 5000],
  [['--max-snapshots=0'], 'maxSnapshots', 0],
  [['--max-wals=10'], 'maxWals', 10],
  [['--quota-backend-bytes=1024'], 'quotaBackendBytes', 1024],
  [['--quota-backend-bytes=1024'], 'effectiveQuotaBackendBytes', 1024],
  [['--quota-backend-bytes=-1'], 'effectiveQuotaBackendBytes', Number.MAX_SAFE_INTEGER],
  [['--max-txn-ops=1024'], 'maxTxnOps', 1024],
  [['--max-request-bytes=10485760'], 'maxRequestBytes', 10485760],
  [['--max-concurrent-streams=100'], 'maxConcurrentStreams', 100],
  [['--grpc-keepalive-min-time=10s'], 'grpcKeepaliveMinTimeMs', 10_000],
  [['--grpc-keepalive-interval=1h'], 'grpcKeepaliveIntervalMs', 3_600_000],
  [['--grpc-keepalive-timeout=0'], 'grpcKeepaliveTimeoutMs', 0],
  [['--advertise-client-urls=http://10.0.0.1:2379,http://10.0.0.1:2379,http://a:1'], 'advertiseClientUrls', ['http://10.0.0.1:2379', 'http://a:1']],
  [['--initial-advertise-peer-urls=http://10.0.0.2:2380'], 'initialAdvertisePeerUrls', ['http://10.0.0.2:2380']],
  [['--initial-advertise-peer-urls=http://10.0.0.2:2380'], 'initialCluster', [{ name: 'default', peerUrls: ['http://10.0.0.2:2380'] }]],
  [['--name=n1', '--initial-advertise-peer-urls=http://b:2380,http://a:2380'], 'initialCluster', [{ name: 'n1', peerUrls: ['http://a:2380', 'http://b:2380'] }]],
  [
    ['--initial-cluster=n1=http://10.0.0.1:2380,n2=http://10.0.0.2:2380,n1=http://10.0.0.9:2380'],
    'initialCluster',
    [
      { name: 'n1', peerUrls: ['http://10.0.0.1:2380', 'http://10.0.0.9:2380'] },
      { name: 'n2', peerUrls: ['http://10.0.0.2:2380'] },
    ],
  ],
  [['--initial-cluster-token=tkn'], 'initialClusterToken', 'tkn'],
  [['--initial-cluster-state=existing'], 'initialClusterState', 'existing'],
  [['--strict-reconfig-check=false'], 'strictReconfigCheck', false],
  [['--pre-vote=false'], 'preVote', false],
  [['--force-new-cluster'], 'forceNewCluster', true],
  [['--auto-compaction-retention=1'], 'autoCompaction', { mode: 'periodic', retentionMs: 3_600_000 }],
  [['--auto-compaction-retention=30m'], 'autoCompaction', { mode: 'periodic', retentionMs: 1_800_000 }],
  [['--auto-compaction-mode=revision', '--auto-compaction-retention=1000'], 'autoCompaction', { mode: 'revision', retention: 1000n }],
  [['--auto-compaction-mode=revision'], 'autoCompaction', undefined],
  [['--enable-v2'], 'enableV2', true],
  [['--enable-grpc-gateway=false'], 'enableGrpcGateway', false],
  [['--experimental-watch-progress-notify-interval=5s'], 'experimentalWatchProgressNotifyIntervalMs', 5000],
  [['--experimental-watch-progress-notify-interval=0'], 'experimentalWatchProgressNotifyIntervalMs', 600_000],
  [['--experimental-watch-progress-notify-interval=1ms'], 'experimentalWatchProgressNotifyIntervalMs', 100],
  [['--experimental-downgrade-check-time=1s'], 'experimentalDowngradeCheckTimeMs', 1000],
  [['--logger=capnslog'], 'logger', 'capnslog'],
  [['--log-level=debug'], 'logLevel', 'debug'],
  [['--log-level=panic'], 'logLevel', 'panic'],
  [['--log-outputs=stderr,/var/log/kv.log'], 'logOutputs', ['stderr', '/var/log/kv.log']],
  [['--log-outputs=stdout'], 'logOutputs', ['stdout']],
  [['--log-outputs='], 'logOutputs', ['default']],
  [['--log-outputs=systemd/journal'], 'logOutputs', ['stderr']],
  [['--auth-token=jwt,pub-key=a.pub,priv-key=a.key,sign-method=RS256'], 'authToken', 'jwt,pub-key=a.pub,priv-key=a.key,sign-method=RS256'],
  [['--auth-token-ttl=60'], 'authTokenTtlSeconds', 60],
  [['--bcrypt-cost=4'], 'bcryptCost', 4],
  [['--cors=http://a.example,http://b.example'], 'cors', ['http://a.example', 'http://b.example']],
  [['--host-whitelist=a,b'], 'hostWhitelist', ['a', 'b']],
  [['--metrics=extensive'], 'metrics', 'extensive'],
  [['--enable-pprof'], 'enablePprof', true],
  [['--cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_AES_128_GCM_SHA256'], 'cipherSuites', ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256']],
];

for (const [argv, field, expected] of ROWS) {
  void test(`flag ${argv.join(' ')} → ${field}`, () => {
    assert.deepEqual(run(argv).config[field], expected);
  });
}

void test('listener URLs become URL objects; texts are deduplicated and sorted', () => {
  const { config } = run([
    '--listen-client-urls=http://127.0.0.1:2379, http://0.0.0.0:12379,http://127.0.0.1:2379',
    '--advertise-client-urls=http://10.0.0.1:2379',
    '--listen-peer-urls=http://[::1]:2380',
    '--listen-metrics-urls=http://localhost:9090',
    '--listen-client-http-urls=unix://localhost:4001',
  ]);
  assert.deepEqual(config.listenClientUrls.map((u) => [u.hostname, u.port]), [['0.0.0.0', '12379'], ['127.0.0.1', '2379']]);
  assert.deepEqual(config.listenPeerUrls.map((u) => [u.hostname, u.port]), [['[::1]', '2380']]);
  assert.deepEqual(config.listenMetricsUrls.map((u) => u.port), ['9090']);
  assert.deepEqual(config.listenClientHttpUrls.map((u) => u.protocol), ['unix:']);
});

void test('TLS client and peer settings are recorded (http URLs warn that they ignore them)', () => {
  const { config, warnings } = run(['--cert-file=s.crt', '--key-file=s.key', '--peer-client-cert-auth', '--peer-cert-allowed-cn=etcd', '--client-crl-file=c.crl']);
  assert.equal(config.clientTransportSecurity.certFile, 's.crt');
  assert.equal(config.clientTransportSecurity.keyFile, 's.key');
  assert.equal(config.clientTransportSecurity.crlFile, 'c.crl');
  assert.equal(config.peerTransportSecurity.clientCertAuth, true);
  assert.equal(config.peerTransportSecurity.allowedCn, 'etcd');
  assert.ok(warnings.includes('scheme is HTTP while key and cert files are present; ignoring key and cert files (client url http://localhost:2379)'));
  assert.ok(warnings.includes('scheme is HTTP while --peer-client-cert-auth is enabled; ignoring client cert auth for this URL (peer url http://localhost:2380)'));
  // Setting a TLS flag to its "off" value does not warn.
  assert.deepEqual(run(['--client-cert-auth=false']).warnings, []);
});

const CROSS_ERRORS: ReadonlyArray<readonly [readonly string[], string]> = [
  [['--heartbeat-interval=250'], '--election-timeout[1000ms] should be at least as 5 times as --heartbeat-interval[250ms]'],
  [['--heartbeat-interval=0'], '--heartbeat-interval must be >0 (set to 0ms)'],
  [['--election-timeout=0'], '--election-timeout must be >0 (set to 0ms)'],
  [['--election-timeout=50001'], '--election-timeout[50001ms] is too long, and should be set less than 50000ms'],
  [['--listen-client-urls=http://127.0.0.1:2379'], '--advertise-client-urls is required when --listen-client-urls is set explicitly'],
  [['--listen-client-urls=http://example.com:2379', '--advertise-client-urls=http://a:1'], 'invalid value "http://example.com:2379" for flag --listen-client-urls: expected IP in URL for binding (http://example.com:2379)'],
  [['--listen-peer-urls=https://127.0.0.1:2380'], 'cannot listen on TLS for 127.0.0.1:2380: KeyFile and CertFile are not presented (--peer-cert-file, --peer-key-file or --peer-auto-tls)'],
  [['--listen-client-urls=https://127.0.0.1:2379', '--advertise-client-urls=https://127.0.0.1:2379'], 'TLS key/cert (--cert-file, --key-file) must be provided for client url https://127.0.0.1:2379 with HTTPS scheme'],
  [['--listen-client-urls=https://127.0.0.1:2379', '--advertise-client-urls=https://127.0.0.1:2379', '--cert-file=a.crt'], '--cert-file, --key-file: KeyFile and CertFile must both be present[key: , cert: a.crt]'],
  [['--listen-peer-urls=unixs://localhost:2380'], 'invalid value "unixs://localhost:2380" for flag --listen-peer-urls: TLS over unix sockets is not supported by kvstore, use https or unix instead: unixs://localhost:2380'],
  [['--cipher-suites=TLS_NOPE'], 'invalid value "TLS_NOPE" for flag --cipher-suites: unexpected TLS cipher suite "TLS_NOPE"'],
  [['--tls-min-version=TLS1.1'], '--tls-min-version: unexpected TLS version "TLS1.1" (must be one of: TLS1.2, TLS1.3)'],
  [['--tls-min-version=TLS1.3', '--tls-max-version=TLS1.2'], '--tls-min-version: min version (TLS1.3) is greater than max version (TLS1.2)'],
  [['--tls-min-version=TLS1.3', '--cipher-suites=TLS_RSA_WITH_AES_128_CBC_SHA'], '--cipher-suites: cipher suites cannot be configured when only TLS1.3 is enabled'],
  [['--peer-cert-allowed-cn=a', '--peer-cert-allowed-hostname=b'], '--peer-cert-allowed-cn, --peer-cert-allowed-hostname: AllowedCN and AllowedHostname are mutually exclusive (cn="a", hostname="b")'],
  [['--listen-peer-urls='], 'invalid value "" for flag --listen-peer-urls: at least one URL is required'],
  [['--advertise-client-urls=ftp://a:1'], 'invalid value "ftp://a:1" for flag --advertise-client-urls: URL scheme must be http, https, unix, or unixs: ftp://a:1'],
  [['--advertise-client-urls=localhost:2379'], 'invalid value "localhost:2379" for flag --advertise-client-urls: URL scheme must be http, https, unix, or unixs: localhost:2379'],
  [['--advertise-client-urls=http://a'], 'invalid value "http://a" for flag --advertise-client-urls: URL address does not have the form "host:port": http://a'],
  [['--advertise-client-urls=http://a:1/x'], 'invalid value "http://a:1/x" for flag --advertise-client-urls: URL must not contain a path: http://a:1/x'],
  [['--initial-cluster=n1'], 'invalid value "n1" for flag --initial-cluster: each entry must have the form <name>=<peer-url>, got "n1"'],
  [['--initial-cluster=n1=10.0.0.1:2380'], 'invalid value "n1=10.0.0.1:2380" for flag --initial-cluster: URL scheme must be http, https, unix, or unixs: 10.0.0.1:2380'],
  [['--initial-cluster='], 'invalid value "" for flag --initial-cluster: at least one <name>=<peer-url> is required'],
  [['--auto-compaction-retention=abc'], 'invalid value "abc" for flag --auto-compaction-retention: must be a number of hours or a valid duration such as 30m or 1h30m (--auto-compaction-mode=periodic)'],
  [['--auto-compaction-retention=-1h'], 'invalid value "-1h" for flag --auto-compaction-retention: must be a number of hours or a valid duration such as 30m or 1h30m (--auto-compaction-mode=periodic)'],
  [['--auto-compaction-mode=revision', '--auto-compaction-retention=1h'], 'invalid value "1h" for flag --auto-compaction-retention: must be a non-negative integer number of revisions (--auto-compaction-mode=revision)'],
  [['--log-outputs=default,/tmp/x.log'], 'invalid value "default,/tmp/x.log" for flag --log-outputs: "default" cannot be combined with other outputs (use "stderr")'],
  [['--bcrypt-cost=3'], 'invalid value "3" for flag --bcrypt-cost: must be between 4 and 31'],
  [['--auth-token=oauth'], `invalid value "oauth" for flag --auth-token: must be 'simple' or 'jwt,<options>'`],
  [['--discovery=https://discovery.etcd.io/abc'], 'flag --discovery is not supported by kvstore (value "https://discovery.etcd.io/abc")'],
  [['--proxy=on'], 'flag --proxy is not supported by kvstore (value "on")'],
  [['--grpc-keepalive-min-time=5'], 'invalid value "5" for flag --grpc-keepalive-min-time: missing unit in duration "5"; must be a duration such as 500ms, 5s or 1h30m'],
];

for (const [argv, message] of CROSS_ERRORS) {
  void test(`${argv.join(' ')} fails: ${message}`, () => {
    assert.equal(failure(argv), message);
  });
}

void test('an unsupported flag set to its default is accepted', () => {
  assert.deepEqual(run(['--proxy=off']).warnings, []);
});

void test('deprecated flags warn and are folded into their replacements', () => {
  const debug = run(['--debug']);
  assert.equal(debug.config.logLevel, 'debug');
  assert.deepEqual(debug.warnings, ['flag --debug is deprecated: use --log-level=debug instead']);

  const output = run(['--log-output=stdout']);
  assert.deepEqual(output.config.logOutputs, ['stdout']);
  assert.deepEqual(output.warnings, ['flag --log-output is deprecated: use --log-outputs instead']);
  // --log-outputs wins over the singular form.
  assert.deepEqual(run(['--log-output=stdout', '--log-outputs=stderr']).config.logOutputs, ['stderr']);

  const pkg = run(['--log-package-levels=etcdserver=DEBUG']);
  assert.deepEqual(pkg.warnings, ['flag --log-package-levels is deprecated: use --log-level instead (ignored)']);
});

void test('other warnings: no-effect flags, big quota, progress interval floor, journald', () => {
  assert.deepEqual(run(['--enable-pprof']).warnings, ['flag --enable-pprof is accepted for compatibility but has no effect in kvstore']);
  assert.deepEqual(run(['--quota-backend-bytes=9000000000']).warnings, ['--quota-backend-bytes 9000000000 exceeds the maximum recommended value 8589934592']);
  assert.deepEqual(run(['--quota-backend-bytes=-1']).warnings, ['backend quota disabled (--quota-backend-bytes is negative)']);
  assert.deepEqual(run(['--experimental-watch-progress-notify-interval=1ms']).warnings, [
    '--experimental-watch-progress-notify-interval 1ms raised to the minimum 100ms',
  ]);
  assert.deepEqual(run(['--log-outputs=systemd/journal']).warnings, ['log output systemd/journal is not available in kvstore; logging to stderr']);
});

void test('deprecations start with the line that deprecated the flag', () => {
  assert.deepEqual(run(['--debug'], { KVSTORE_SERVER_VERSION: '3.3.0' }).warnings, []);
  assert.deepEqual(run(['--debug'], { KVSTORE_SERVER_VERSION: '3.4.0' }).warnings, ['flag --debug is deprecated: use --log-level=debug instead']);
  // Ignored flags that are not deprecated yet still say they have no effect.
  assert.deepEqual(run(['--log-package-levels=x=DEBUG'], { KVSTORE_SERVER_VERSION: '3.3.0' }).warnings, [
    'flag --log-package-levels is accepted for compatibility but has no effect in kvstore',
  ]);
});

void test('TLS: auto TLS satisfies an https URL; --tls-min-version is read from the 3.5 line only', () => {
  const https = ['--listen-client-urls=https://127.0.0.1:2379', '--advertise-client-urls=https://127.0.0.1:2379', '--auto-tls'];
  assert.equal(run(https).config.clientTransportSecurity.autoTls, true);
  const given = run([...https, '--cert-file=a.crt', '--key-file=a.key']);
  assert.ok(given.warnings.includes('ignoring client auto TLS since certs given'));
  assert.deepEqual(run(['--tls-min-version=TLS1.3']).config.tlsProtocol, { ciphers: undefined, minVersion: 'TLSv1.3', maxVersion: undefined });
  const old = run(['--tls-min-version=TLS1.1'], { KVSTORE_SERVER_VERSION: '3.4.0' });
  assert.deepEqual(old.config.tlsProtocol, { ciphers: undefined, minVersion: 'TLSv1.2', maxVersion: undefined });
  assert.ok(old.warnings.includes('flag --tls-min-version was added in 3.5; accepted although the server version line is 3.4'));
});
