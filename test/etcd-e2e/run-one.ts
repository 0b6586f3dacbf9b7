/**
 * Runs ONE test of the suite in its own process, bounded in time, and reads its verdict.
 *
 * Two of the suite's tests wait forever on a wrong answer, so each test gets Go's own `-test.timeout`
 * and, `HARD_KILL_GRACE_MS` later, a SIGKILL. The suite starts its members through a pty in a new
 * session, so they outlive a killed test process; every process of a run therefore carries a token
 * in its environment (`KVSTORE_ETCD_E2E_RUN`), and after the test ends the processes holding that
 * token — only ones this run started — are killed by pid. Leftovers would hold the suite's fixed ports.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Tree } from './build.js';
import { isolated } from './isolation.js';

export const RESULTS = ['pass', 'fail', 'timeout', 'skip'] as const;
export type Result = (typeof RESULTS)[number];

/** One test's outcome. `reason` is the first failure line; `tail` the first and last lines of its output. */
export interface Outcome {
  readonly name: string;
  readonly result: Result;
  readonly seconds: number;
  readonly reason?: string;
  readonly tail?: string;
  /** Set when this outcome is a retry: how the first attempt ended (a pass after it marks a flaky test). */
  readonly firstAttempt?: { readonly result: Result; readonly reason?: string };
}

const HARD_KILL_GRACE_MS = 15_000;
const TOKEN_VAR = 'KVSTORE_ETCD_E2E_RUN';
const HEAD_LINES = 10;
const TAIL_LINES = 20;

/** Pids of live processes whose environment holds `TOKEN_VAR=token`. */
function processesWithToken(token: string): number[] {
  const needle = `${TOKEN_VAR}=${token}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let environ: string;
    try {
      environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (environ.split('\0').includes(needle)) pids.push(Number(entry));
  }
  return pids;
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw new Error(`could not kill ${pid}`, { cause: err });
    }
  }
}

/**
 * The line that says why the test failed: Go's timeout, else the first `file_test.go:NN:` line saying
 * fail/error (t.Log lines come first in some tests), else any such line, a panic, `--- FAIL`.
 */
function failureReason(output: string): string | undefined {
  const lines = output.split('\n').map((l) => l.trim());
  const found =
    lines.find((l) => /^panic: test timed out/.test(l)) ??
    lines.find((l) => /^[\w.]+\.go:\d+: /.test(l) && /\b(fail(ed|s)?|error)\b/i.test(l)) ??
    lines.find((l) => /^[\w.]+\.go:\d+: /.test(l)) ??
    lines.find((l) => /^(panic|fatal error): /.test(l)) ??
    lines.find((l) => /^--- FAIL/.test(l)) ??
    lines.find((l) => l !== '' && !/^(=== RUN|goroutine |\S+\(|\t)/.test(l));
  return found?.slice(0, 300);
}

function verdict(name: string, output: string, code: number | null, hardKilled: boolean): Result {
  if (hardKilled || /^panic: test timed out/m.test(output)) return 'timeout';
  if (new RegExp(`^--- SKIP: ${name} `, 'm').test(output)) return 'skip';
  if (code === 0 && new RegExp(`^--- PASS: ${name} `, 'm').test(output)) return 'pass';
  return 'fail';
}

/** How a test process is started: as it is, or in a network namespace of its own (isolation.ts). */
export interface RunOptions {
  readonly isolate: boolean;
}

/** Runs test `name` of `binary` in `tree`, giving up after `timeoutSeconds` (+ the hard-kill grace). */
export async function runOne(binary: string, tree: Tree, name: string, timeoutSeconds: number, opts: RunOptions = { isolate: false }): Promise<Outcome> {
  const token = randomBytes(8).toString('hex');
  const started = performance.now();
  const args = ['-test.run', `^${name}$`, '-test.v', '-test.timeout', `${timeoutSeconds}s`, '-bin-dir', tree.binDir, '-cert-dir', tree.certDir];
  const env = { ...process.env, TMPDIR: tree.tmpDir, [TOKEN_VAR]: token };
  let output = '';
  let hardKilled = false;
  const code = await new Promise<number | null>((resolveRun, reject) => {
    const [command, argv] = opts.isolate ? isolated(binary, args) : [binary, args];
    const proc = spawn(command, argv, { cwd: tree.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (b: Buffer) => (output += b.toString()));
    proc.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const timer = setTimeout(() => {
      hardKilled = true;
      killAll(processesWithToken(token));
    }, timeoutSeconds * 1000 + HARD_KILL_GRACE_MS);
    proc.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`could not run ${binary}`, { cause: err }));
    });
    proc.once('close', (exitCode) => {
      clearTimeout(timer);
      resolveRun(exitCode);
    });
  });
  killAll(processesWithToken(token));
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const result = verdict(name, output, code, hardKilled);
  if (result === 'pass' || result === 'skip') return { name, result, seconds };
  const lines = output.trimEnd().split('\n');
  const tail = lines.length <= HEAD_LINES + TAIL_LINES ? lines.join('\n') : [...lines.slice(0, HEAD_LINES), '…', ...lines.slice(-TAIL_LINES)].join('\n');
  return { name, result, seconds, reason: failureReason(output) ?? (hardKilled ? 'killed after the timeout' : `exit ${code}`), tail };
}

/**
 * Runs `name`; when `retryIf` holds for the outcome, runs it once more and returns the second outcome
 * carrying the first one's result and reason. Used so that only a reproducible failure gates.
 */
export async function runWithRetry(binary: string, tree: Tree, name: string, timeoutSeconds: number, retryIf: (o: Outcome) => boolean, opts: RunOptions = { isolate: false }): Promise<Outcome> {
  const first = await runOne(binary, tree, name, timeoutSeconds, opts);
  if (!retryIf(first)) return first;
  const second = await runOne(binary, tree, name, timeoutSeconds, opts);
  return { ...second, firstAttempt: first.reason === undefined ? { result: first.result } : { result: first.result, reason: first.reason } };
}

/** The suite's test names, in its order. */
export async function listTests(binary: string, tree: Tree): Promise<string[]> {
  const output = await new Promise<string>((resolveList, reject) => {
    const proc = spawn(binary, ['-test.list', '.*'], { cwd: tree.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
    proc.once('error', (err) => reject(new Error(`could not run ${binary}`, { cause: err })));
    proc.once('close', (code) => (code === 0 ? resolveList(out) : reject(new Error(`${binary} -test.list exited ${code}`))));
  });
  return output.split('\n').filter((l) => /^Test\w+$/.test(l));
}
