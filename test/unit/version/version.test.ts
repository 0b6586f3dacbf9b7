// Server version selection, version output, and the per-version profile as seen through loadConfig.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_VERSION, DEFAULT_SERVER_VERSION, apiVersionOf, formatVersionOutput, resolveServerVersion } from '../../../server/version/version.js';
import { minorAtLeast } from '../../../server/version/minor.js';
import { profileFor } from '../../../server/version/profile.js';
import { failure, run } from '../config/helpers.js';

const ACCEPTED: ReadonlyArray<readonly [string | undefined, string]> = [
  [undefined, '3.5.0'],
  ['', '3.5.0'],
  ['3.2.0', '3.2.0'],
  ['3.3.27', '3.3.27'],
  ['3.4.45', '3.4.45'],
  ['3.5.33', '3.5.33'],
  [' 3.4.0 ', '3.4.0'],
];

for (const [value, version] of ACCEPTED) {
  void test(`KVSTORE_SERVER_VERSION=${JSON.stringify(value)} → ${version}`, () => {
    assert.deepEqual(resolveServerVersion({ KVSTORE_SERVER_VERSION: value }), { ok: true, version });
  });
}

for (const value of ['3.6.0', '3.1.9', '3.4', '3.4.x', 'v3.4.0', '3.4.01', '4.0.0', 'latest']) {
  void test(`KVSTORE_SERVER_VERSION=${value} is rejected with the accepted values`, () => {
    assert.deepEqual(resolveServerVersion({ KVSTORE_SERVER_VERSION: value }), {
      ok: false,
      message: `invalid value ${JSON.stringify(value)} for environment variable KVSTORE_SERVER_VERSION: must be one of 3.2.x, 3.3.x, 3.4.x, 3.5.x (x = patch number, e.g. 3.4.0)`,
    });
  });
}

void test('an invalid server version fails loadConfig', () => {
  assert.match(failure([], { KVSTORE_SERVER_VERSION: '9.9.9' }), /KVSTORE_SERVER_VERSION: must be one of 3\.2\.x/);
});

void test('api version = major.minor', () => {
  assert.equal(DEFAULT_SERVER_VERSION, '3.5.0');
  assert.equal(API_VERSION, apiVersionOf(DEFAULT_SERVER_VERSION));
  assert.equal(apiVersionOf('3.4.27'), '3.4');
  assert.throws(() => apiVersionOf('3.9.0'));
  assert.ok(minorAtLeast('3.5', '3.4'));
  assert.ok(minorAtLeast('3.4', '3.4'));
  assert.ok(!minorAtLeast('3.3', '3.4'));
});

void test('version output', () => {
  assert.equal(
    formatVersionOutput('3.4.0', { nodeVersion: 'v20.19.0', platform: 'linux', arch: 'x64' }),
    'kvstore Version: 3.4.0\nAPI Version: 3.4\nNode Version: v20.19.0\nOS/Arch: linux/x64\n',
  );
});

/** Per-version defaults, as the configuration sees them. */
const DEFAULTS: ReadonlyArray<readonly [string, { logger: string; preVote: boolean; enableV2: boolean }]> = [
  ['3.2.0', { logger: 'capnslog', preVote: false, enableV2: true }],
  ['3.3.0', { logger: 'capnslog', preVote: false, enableV2: true }],
  ['3.4.0', { logger: 'zap', preVote: false, enableV2: false }],
  ['3.5.0', { logger: 'zap', preVote: true, enableV2: false }],
];

for (const [version, expected] of DEFAULTS) {
  void test(`defaults of ${version}`, () => {
    const { config } = run([], { KVSTORE_SERVER_VERSION: version });
    assert.deepEqual({ logger: config.logger, preVote: config.preVote, enableV2: config.enableV2 }, expected);
    assert.equal(config.serverVersion, version);
    assert.equal(config.minorVersion, version.slice(0, 3));
    assert.equal(profileFor(version).minor, version.slice(0, 3));
  });
}

void test('3.5 deprecates --logger=capnslog and --enable-v2 (warnings)', () => {
  const { warnings } = run(['--logger=capnslog', '--enable-v2']);
  assert.deepEqual(warnings, [
    'flag --enable-v2 is deprecated in 3.5',
    '--logger=capnslog is deprecated in 3.5; use --logger=zap (kvstore writes JSON lines either way)',
  ]);
  assert.deepEqual(run(['--logger=capnslog', '--enable-v2'], { KVSTORE_SERVER_VERSION: '3.4.0' }).warnings, []);
});

void test('3.2 accepts only whole hours as a periodic retention', () => {
  const env = { KVSTORE_SERVER_VERSION: '3.2.0' };
  assert.deepEqual(run(['--auto-compaction-retention=2'], env).config.autoCompaction, { mode: 'periodic', retentionMs: 7_200_000 });
  assert.equal(
    failure(['--auto-compaction-retention=30m'], env),
    'invalid value "30m" for flag --auto-compaction-retention: must be a whole number of hours in 3.2 (--auto-compaction-mode=periodic)',
  );
});

void test('capabilities: a method a later line introduced waits for the cluster version', async () => {
  const { capableOf } = await import('../../../server/version/profile.js');
  assert.equal(capableOf('3.4', '/etcdserverpb.Maintenance/Downgrade'), false);
  assert.equal(capableOf('3.5', '/etcdserverpb.Maintenance/Downgrade'), true);
  assert.equal(capableOf('3.3', '/etcdserverpb.Cluster/MemberPromote'), false);
  assert.equal(capableOf('3.4', '/etcdserverpb.Cluster/MemberPromote'), true);
  assert.equal(capableOf('3.2', '/etcdserverpb.KV/Range'), true);
  assert.equal(capableOf(undefined, '/etcdserverpb.Maintenance/Downgrade'), true);
});
