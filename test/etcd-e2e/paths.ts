/**
 * Where the etcd 3.4 e2e suite and its scratch space live.
 *
 * The suite's Go sources come from Debian's golang-etcd-server-dev (GOPATH /usr/share/gocode). Everything
 * the runner writes — the compiled `e2e.test`, the Go build cache, one scratch tree per server, the results —
 * goes under `<repo>/.e2e/`, which ignores itself (it holds a `.gitignore` of `*`). The committed lists
 * (reference.json, accepted.json, known-open.json) sit beside the sources in `<repo>/test/etcd-e2e/`.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** GOPATH holding go.etcd.io/etcd (Debian's golang-*-dev packages). */
export const SYSTEM_GOPATH = '/usr/share/gocode';
/** The etcd source tree inside it. */
export const ETCD_SRC = join(SYSTEM_GOPATH, 'src', 'go.etcd.io', 'etcd');
/** The e2e suite's package and folder. */
export const SUITE_PKG = 'go.etcd.io/etcd/tests/e2e';
export const SUITE_SRC = join(ETCD_SRC, 'tests', 'e2e');
/** Certificate fixtures the suite reads as `../../integration/fixtures`. */
export const FIXTURES_SRC = join(ETCD_SRC, 'integration', 'fixtures');

/** The repository root: the folder above this file (source or compiled) that holds test/etcd-e2e/accepted.json. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'test', 'etcd-e2e', 'accepted.json')) && existsSync(join(dir, 'package.json'))) return dir;
    dir = resolve(dir, '..');
  }
  throw new Error(`test/etcd-e2e/accepted.json not found above ${fileURLToPath(import.meta.url)}`);
}

/** The committed lists and the sample config, in the source tree. */
export function listsDir(): string {
  return join(repoRoot(), 'test', 'etcd-e2e');
}

/** The runner's scratch folder (`.e2e/`, self-ignoring). */
export function workDir(): string {
  return join(repoRoot(), '.e2e');
}

/** kvstore's compiled server entry point: `<build>/server/main.js` beside this compiled `<build>/test/etcd-e2e/`. */
export function kvstoreMain(): string {
  return process.env.KVSTORE_BIN ?? resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'main.js');
}

/** Debian's etcd 3.4 server and etcdctl. */
export const ETCD_BIN = process.env.ETCD_BIN ?? '/usr/bin/etcd';
export const ETCDCTL_BIN = process.env.ETCDCTL_BIN ?? '/usr/bin/etcdctl';

/** Why the suite cannot run here (Go or the sources missing), or undefined when it can. */
export function missingPrerequisite(): string | undefined {
  if (!existsSync(join(SUITE_SRC, 'main_test.go'))) return `the etcd e2e sources are not in ${SUITE_SRC} (apt-get install golang-etcd-server-dev)`;
  if (!existsSync(FIXTURES_SRC)) return `the certificate fixtures are not in ${FIXTURES_SRC} (apt-get install golang-etcd-server-dev)`;
  const onPath = (process.env.PATH ?? '').split(':').some((d) => d !== '' && existsSync(join(d, 'go')));
  if (!onPath) return '`go` is not on PATH (apt-get install golang-go)';
  return undefined;
}
