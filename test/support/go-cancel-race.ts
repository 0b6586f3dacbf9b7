/**
 * The Go clientv3 side of the cancel-race test: test/e2e/go/cancelrace, built the way the bench
 * builds its load generator (bench/kvload/build.ts) — offline, GOPATH mode, against Debian's
 * golang-etcd-server-dev sources in /usr/share/gocode — into `<repo>/.bench/bin/cancelrace`,
 * sharing the bench's Go build cache (`<repo>/.bench/go-cache`, gitignored). It is rebuilt when a
 * .go source is newer than the binary; the binary is written under a temporary name and renamed.
 */
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ensureGoBinary } from '../../bench/go-build.js';
import { BUILD_ROOT } from './paths.js';

const run = promisify(execFile);

const REPO = dirname(BUILD_ROOT);
const SOURCE_DIR = join(REPO, 'test', 'e2e', 'go', 'cancelrace');
const OUT_DIR = join(REPO, '.bench');

/** Path of an up-to-date cancelrace binary, built first when needed (a few seconds warm, ~20 s cold). */
export async function cancelRaceBinary(): Promise<string> {
  try {
    return await ensureGoBinary({ binary: join(OUT_DIR, 'bin', 'cancelrace'), sourceDir: SOURCE_DIR, args: ['build', '.'], cwd: SOURCE_DIR, cacheDir: join(OUT_DIR, 'go-cache') });
  } catch (err) {
    throw new Error(`building ${SOURCE_DIR} failed`, { cause: err });
  }
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
