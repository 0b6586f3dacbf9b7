// Flags from KVSTORE_* environment variables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envName } from '../../../server/config/flag-table.js';
import { failure, run } from './helpers.js';

void test('env names are KVSTORE_ + the flag in upper snake case', () => {
  assert.equal(envName('data-dir'), 'KVSTORE_DATA_DIR');
  assert.equal(envName('listen-client-urls'), 'KVSTORE_LISTEN_CLIENT_URLS');
  assert.equal(envName('experimental-watch-progress-notify-interval'), 'KVSTORE_EXPERIMENTAL_WATCH_PROGRESS_NOTIFY_INTERVAL');
});

const ROWS: ReadonlyArray<readonly [Record<string, string>, (c: ReturnType<typeof run>['config']) => unknown, unknown]> = [
  [{ KVSTORE_DATA_DIR: '/data' }, (c) => c.dataDir, '/data'],
  [{ KVSTORE_NAME: 'infra1' }, (c) => c.dataDir, 'infra1.kvstore'],
  [{ KVSTORE_LISTEN_CLIENT_URLS: 'http://0.0.0.0:2379', KVSTORE_ADVERTISE_CLIENT_URLS: 'http://10.0.0.1:2379' }, (c) => c.listenClientUrls.map((u) => u.host), ['0.0.0.0:2379']],
  [{ KVSTORE_ENABLE_GRPC_GATEWAY: 'false' }, (c) => c.enableGrpcGateway, false],
  [{ KVSTORE_ENABLE_V2: 'true', KVSTORE_SERVER_VERSION: '3.4.0' }, (c) => c.enableV2, true],
  [{ KVSTORE_MAX_REQUEST_BYTES: '100' }, (c) => c.maxRequestBytes, 100],
  [{ KVSTORE_AUTO_COMPACTION_RETENTION: '1h' }, (c) => c.autoCompaction, { mode: 'periodic', retentionMs: 3_600_000 }],
  [{ KVSTORE_INITIAL_CLUSTER_STATE: 'existing' }, (c) => c.initialClusterState, 'existing'],
  [{ KVSTORE_LOG_LEVEL: 'warn' }, (c) => c.logLevel, 'warn'],
  [{ KVSTORE_NAME: '' }, (c) => c.name, 'default'], // empty = unset
];

for (const [env, pick, expected] of ROWS) {
  void test(`env ${JSON.stringify(env)}`, () => {
    const { config, warnings } = run([], env);
    assert.deepEqual(pick(config), expected);
    assert.deepEqual(warnings, []);
  });
}

void test('flags and env combine; env fills what flags leave', () => {
  const { config } = run(['--name=a'], { KVSTORE_DATA_DIR: '/d' });
  assert.equal(config.name, 'a');
  assert.equal(config.dataDir, '/d');
});

void test('a flag given both ways: fatal from 3.4, a warning before', () => {
  const env = { KVSTORE_NAME: 'b' };
  assert.equal(
    failure(['--name=a'], env),
    'conflicting environment variable "KVSTORE_NAME" is shadowed by corresponding command-line flag (either unset environment variable or disable flag)',
  );
  const old = run(['--name=a'], { ...env, KVSTORE_SERVER_VERSION: '3.3.0' });
  assert.equal(old.config.name, 'a');
  assert.deepEqual(old.warnings, ['recognized environment variable KVSTORE_NAME, but unused: shadowed by corresponding flag']);
});

void test('invalid env values name the variable', () => {
  assert.equal(failure([], { KVSTORE_ENABLE_V2: 'yes' }), 'invalid value "yes" for environment variable KVSTORE_ENABLE_V2: must be true or false');
  assert.equal(
    failure([], { KVSTORE_INITIAL_CLUSTER_STATE: 'old' }),
    'invalid value "old" for environment variable KVSTORE_INITIAL_CLUSTER_STATE: must be one of new, existing',
  );
});

void test('unrecognized KVSTORE_ variables and KVSTORE_VERSION warn; KVSTORE_SERVER_VERSION does not', () => {
  const { warnings } = run([], { KVSTORE_FOO: 'bar', KVSTORE_VERSION: 'true', KVSTORE_SERVER_VERSION: '3.5.2', HOME: '/root' });
  assert.deepEqual(warnings, ['cannot set special environment variable KVSTORE_VERSION=true; ignored', 'unrecognized environment variable KVSTORE_FOO=bar']);
});
