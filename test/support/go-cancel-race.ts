/**
 * The Go clientv3 side of the cancel-race test: test/e2e/go/cancelrace, built the way the bench
 * builds its load generator (bench/kvload/build.ts) — offline, GOPATH mode, against Debian's
 * golang-etcd-server-dev sources in /usr/share/gocode — into `<repo>/.bench/bin/cancelrace`,
 * sharing the bench's Go build cache (`<repo>/.bench/go-cache`, gitignored). It is rebuilt when a
 * .go source is newer than the binary; the binary is written under a temporary name and renamed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { BUILD_ROOT } from './paths.js';

const run = promisify(execFile);

const REPO = dirname(BUILD_ROOT);
const SOURCE_DIR = join(REPO, 'test', 'e2e', 'go', 'cancelrace');
const OUT_DIR = join(REPO, '.bench');
const GOPATH = '/usr/share/gocode';
const CLIENTV3 = join(GOPATH, 'src', 'go.etcd.io', 'etcd', 'clientv3');

/** Path of an up-to-date cancelrace binary, built first when needed (a few seconds warm, ~20 s cold). */
export async function cancelRaceBinary(): Promise<string> {
  const binary = join(OUT_DIR, 'bin', 'cancelrace');
  const newest = Math.max(...readdirSync(SOURCE_DIR).filter((f) => f.endsWith('.go')).map((f) => statSync(join(SOURCE_DIR, f)).mtimeMs));
  if (existsSync(binary) && statSync(binary).mtimeMs >= newest) return binary;
  if (!existsSync(CLIENTV3)) throw new Error(`the Go clientv3 sources are missing in ${CLIENTV3} (apt-get install golang-go golang-etcd-server-dev)`);
  mkdirSync(dirname(binary), { recursive: true });
  const tmp = `${binary}.tmp-${process.pid}`;
  const env = { ...process.env, GO111MODULE: 'off', GOPATH, GOPROXY: 'off', GOFLAGS: '', CGO_ENABLED: '0', GOCACHE: join(OUT_DIR, 'go-cache') };
  try {
    await run('go', ['build', '-o', tmp, '.'], { cwd: SOURCE_DIR, env, timeout: 300_000 });
    renameSync(tmp, binary);
  } catch (err) {
    throw new Error(`building ${SOURCE_DIR} failed`, { cause: err });
  } finally {
    rmSync(tmp, { force: true });
  }
  return binary;
}

/** One phase's outcomes, as the Go program counts them. */
export interface GoPhaseTally {
  readonly ok: number;
  readonly cancelled: number;
  readonly deadline: number;
  readonly other: number;
  readonly samples: readonly string[];
}

/** The program's summary line: per phase, and the final plain Put/Get (`ok` or the error). */
export interface GoSummary {
  readonly phases: Readonly<Record<string, GoPhaseTally>>;
  readonly final: string;
}

export type GoRun = { readonly ok: true; readonly summary: GoSummary } | { readonly ok: false; readonly output: string };

/** Runs the program against `endpoint` (a client URL); `tls` gives the CA to verify the member with. */
export async function runGoCancelRace(binary: string, endpoint: string, opts: { readonly ops: number; readonly cacert?: string }): Promise<GoRun> {
  const args = ['--endpoint', endpoint, '--ops', String(opts.ops), '--workers', '8'];
  if (opts.cacert !== undefined) args.push('--cacert', opts.cacert);
  try {
    const { stdout } = await run(binary, args, { timeout: 60_000, env: { ...process.env, GOMAXPROCS: '2' } });
    return { ok: true, summary: JSON.parse(stdout) as GoSummary };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}` };
  }
}
