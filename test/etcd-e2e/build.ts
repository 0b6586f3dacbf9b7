/**
 * Builds etcd 3.4's e2e suite into `.e2e/e2e.test` and lays out one scratch tree per server to run it in.
 *
 * The build is offline, in GOPATH mode (GO111MODULE=off, GOPATH=/usr/share/gocode, GOPROXY=off), with a
 * Go build cache of our own in `.e2e/go-cache`; it is redone only when a suite source (tests/e2e/*.go) is
 * newer than the binary, and written under a temporary name then renamed so a half-written file never runs.
 *
 * The suite reads `../../integration/fixtures` and `../../etcd.conf.yml.sample` relative to its working
 * directory and writes files there, so each run gets a copy with the same layout, under a label (the
 * server's name, or `kvstore-ci` for the CI subset):
 *
 *     .e2e/work/<label>/tests/e2e/            the cwd of every test (a copy of the suite's folder)
 *     .e2e/work/<label>/integration/fixtures/
 *     .e2e/work/<label>/etcd.conf.yml.sample  (ours: etcd-sample.conf.yml; Debian ships none)
 *     .e2e/work/<label>/bin/{etcd,etcdctl}    what -bin-dir names
 *     .e2e/work/<label>/tmp/                  TMPDIR: the suite's data dirs and snapshots
 */
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureGoBinary } from '../../bench/go-build.js';
import { ETCD_BIN, ETCDCTL_BIN, FIXTURES_SRC, SUITE_PKG, SUITE_SRC, kvstoreMain, listsDir, workDir } from './paths.js';


export const SERVERS = ['kvstore', 'etcd'] as const;
export type Server = (typeof SERVERS)[number];

/** Makes `.e2e/` and marks it ignored by git. */
export function ensureWorkDir(): string {
  const dir = workDir();
  mkdirSync(dir, { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) writeFileSync(ignore, '*\n');
  return dir;
}

/** Path of an up-to-date `e2e.test`, building it first when needed (~1 min with a cold cache). */
export async function ensureSuiteBinary(log: (line: string) => void = () => {}): Promise<string> {
  const dir = ensureWorkDir();
  return ensureGoBinary({ binary: join(dir, 'e2e.test'), sourceDir: SUITE_SRC, args: ['test', '-c', SUITE_PKG], cwd: dir, cacheDir: join(dir, 'go-cache'), noCgo: false, log });
}

/** The paths one server's runs use. */
export interface Tree {
  readonly root: string;
  /** Working directory of the test process (`tests/e2e` in the copy). */
  readonly cwd: string;
  readonly binDir: string;
  readonly certDir: string;
  readonly tmpDir: string;
}

/** The `etcd` kvstore is run as: its server with the 3.4 profile, under etcd's flags. */
function kvstoreWrapper(): string {
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    '#!/bin/sh',
    '# etcd for the e2e suite: kvstore speaking as etcd 3.4.23 (written by test/etcd-e2e/build.ts).',
    'KVSTORE_SERVER_VERSION=3.4.23',
    'export KVSTORE_SERVER_VERSION',
    `exec ${q(process.execPath)} ${q(kvstoreMain())} "$@"`,
    '',
  ].join('\n');
}

/** Lays out (afresh) the scratch tree `.e2e/work/<label>` for `server` and returns its paths. */
export function prepareTree(server: Server, label: string = server): Tree {
  const root = join(ensureWorkDir(), 'work', label);
  rmSync(root, { recursive: true, force: true });
  const cwd = join(root, 'tests', 'e2e');
  const certDir = join(root, 'integration', 'fixtures');
  const binDir = join(root, 'bin');
  const tmpDir = join(root, 'tmp');
  cpSync(SUITE_SRC, cwd, { recursive: true });
  cpSync(FIXTURES_SRC, certDir, { recursive: true });
  cpSync(join(listsDir(), 'etcd-sample.conf.yml'), join(root, 'etcd.conf.yml.sample'));
  mkdirSync(binDir, { recursive: true });
  mkdirSync(tmpDir, { recursive: true });
  symlinkSync(ETCDCTL_BIN, join(binDir, 'etcdctl'));
  if (server === 'etcd') {
    symlinkSync(ETCD_BIN, join(binDir, 'etcd'));
  } else {
    if (!existsSync(kvstoreMain())) throw new Error(`${kvstoreMain()} is missing: build first (npx tsc -p tsconfig.json)`);
    writeFileSync(join(binDir, 'etcd'), kvstoreWrapper());
    chmodSync(join(binDir, 'etcd'), 0o755);
  }
  return { root, cwd, binDir, certDir, tmpDir };
}
