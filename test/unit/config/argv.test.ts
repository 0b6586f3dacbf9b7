// Command-line syntax: Go flag package rules, with kvstore's error texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, run, failure } from './helpers.js';

const SAME_AS_NAME_X: ReadonlyArray<readonly string[]> = [
  ['--name=x'],
  ['--name', 'x'],
  ['-name=x'],
  ['-name', 'x'],
  ['--name=a', '--name=x'], // last one wins
];

for (const argv of SAME_AS_NAME_X) {
  void test(`argv ${JSON.stringify(argv)} sets name x`, () => {
    assert.equal(run(argv).config.name, 'x');
  });
}

const BOOLEANS: ReadonlyArray<readonly [readonly string[], boolean]> = [
  [['--enable-v2'], true],
  [['-enable-v2'], true],
  [['--enable-v2=true'], true],
  [['--enable-v2=1'], true],
  [['--enable-v2=T'], true],
  [['--enable-v2=false'], false],
  [['--enable-v2=0'], false],
  [['--enable-v2=FALSE'], false],
  [[], false],
];

for (const [argv, expected] of BOOLEANS) {
  void test(`argv ${JSON.stringify(argv)} → enableV2 ${expected}`, () => {
    assert.equal(run(argv).config.enableV2, expected);
  });
}

void test('a non-boolean flag takes the next argument even if it starts with a dash', () => {
  assert.equal(run(['--name', '-odd']).config.name, '-odd');
});

void test('values may contain "="', () => {
  const { config } = run(['--initial-cluster=a=http://10.0.0.1:2380', '--name=a', '--initial-advertise-peer-urls=http://10.0.0.1:2380']);
  assert.deepEqual(config.initialCluster, [{ name: 'a', peerUrls: ['http://10.0.0.1:2380'] }]);
});

const ERRORS: ReadonlyArray<readonly [readonly string[], string]> = [
  [['--foo'], 'unknown flag: --foo'],
  [['-foo=1'], 'unknown flag: -foo'],
  [['--name'], 'flag needs an argument: --name'],
  [['---name=x'], 'bad flag syntax: ---name=x'],
  [['--=x'], 'bad flag syntax: --=x'],
  [['serve'], "'serve' is not a valid flag"],
  [['--name=x', 'extra'], "'extra' is not a valid flag"],
  [['--', '--name=x'], "'--name=x' is not a valid flag"],
  [['--enable-v2', 'false'], "'false' is not a valid flag (a boolean flag takes its value as --enable-v2=false)"],
  [['--enable-v2=maybe'], 'invalid value "maybe" for flag --enable-v2: must be true or false'],
  [['--initial-cluster-state=foo'], 'invalid value "foo" for flag --initial-cluster-state: must be one of new, existing'],
  [['--max-txn-ops=-1'], 'invalid value "-1" for flag --max-txn-ops: must be an integer from 0 to 9007199254740991'],
  [['--max-request-bytes=1.5'], 'invalid value "1.5" for flag --max-request-bytes: must be an integer from 0 to 9007199254740991'],
  [['--max-concurrent-streams=4294967296'], 'invalid value "4294967296" for flag --max-concurrent-streams: must be an integer from 0 to 4294967295'],
  [['--log-level=verbose'], 'invalid value "verbose" for flag --log-level: must be one of debug, info, warn, error, panic, fatal'],
  [['--logger=glog'], 'invalid value "glog" for flag --logger: must be one of zap, capnslog'],
  [['--auto-compaction-mode=daily'], 'invalid value "daily" for flag --auto-compaction-mode: must be one of periodic, revision'],
];

for (const [argv, message] of ERRORS) {
  void test(`argv ${JSON.stringify(argv)} fails: ${message}`, () => {
    assert.equal(failure(argv), message);
  });
}

void test('the first error wins, as flags are read left to right', () => {
  assert.equal(failure(['--foo', '--bar']), 'unknown flag: --foo');
  assert.equal(failure(['--name', 'x', '--nope', '--help']), 'unknown flag: --nope');
});

void test('-h, --help, -help all ask for help, even after other flags', () => {
  for (const argv of [['-h'], ['--help'], ['-help'], ['--h'], ['--name=x', '--help']]) {
    const out = load(argv);
    assert.equal(out.kind, 'help', JSON.stringify(argv));
  }
});

void test('--version asks for the version (with the presented server version), unless false', () => {
  assert.deepEqual(load(['--version']), { kind: 'version', serverVersion: '3.5.0' });
  assert.deepEqual(load(['-version'], { KVSTORE_SERVER_VERSION: '3.4.9' }), { kind: 'version', serverVersion: '3.4.9' });
  assert.equal(load(['--version=false']).kind, 'run');
  // --version beats an invalid combination of other flags, but not a syntax error.
  assert.equal(load(['--heartbeat-interval=999', '--version']).kind, 'version');
  assert.equal(load(['--version', '--foo']).kind, 'error');
});
