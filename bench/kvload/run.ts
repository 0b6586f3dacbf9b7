/**
 * Runs one load plan with the Go generator: spawns kvload, follows its JSON lines (output.ts),
 * tells the observer when the window opens and closes, and returns the result.
 *
 * Bounded: the process is killed if it has not reported a result within its set-up allowance
 * plus warm-up and window plus a margin; a run fails (rejects) on an "error" line, a malformed
 * line, or an exit without a result, with the tail of kvload's stderr.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { LoadPlan, LoadResult, WindowObserver } from '../load-spec.js';
import { kvloadArgs } from './args.js';
import { parseKvloadLine, toLoadResult, type KvloadResult } from './output.js';

/** Connecting (and, for watch, creating every watcher) may take this long. */
function setupAllowanceMs(plan: LoadPlan): number {
  return plan.load.kind === 'watch' ? 150_000 : 30_000;
}
const MARGIN_MS = 30_000;

/**
 * `goProcs` is kvload's GOMAXPROCS (0: Go's default, one per core). One thread keeps it lightest
 * on a small machine: fewer idle wake-ups per request, and one core serves some 30 k requests/s.
 */
export function runKvload(binary: string, plan: LoadPlan, observer?: WindowObserver, goProcs = 0): Promise<LoadResult> {
  const args = kvloadArgs(plan);
  return new Promise<LoadResult>((resolve, reject) => {
    const env = goProcs > 0 ? { ...process.env, GOMAXPROCS: String(goProcs) } : process.env;
    const proc = spawn(binary, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let result: KvloadResult | null = null;
    let failure: Error | null = null;
    let windowOpen = false;
    proc.stderr.on('data', (b: Buffer) => {
      stderr = (stderr + b.toString()).slice(-4000);
    });
    const fail = (err: Error): void => {
      failure ??= err;
      proc.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => fail(new Error(`kvload did not finish within ${setupAllowanceMs(plan) + plan.warmupMs + plan.measureMs + MARGIN_MS} ms`)),
      setupAllowanceMs(plan) + plan.warmupMs + plan.measureMs + MARGIN_MS,
    );
    createInterface({ input: proc.stdout }).on('line', (line) => {
      if (line.trim() === '' || failure !== null) return;
      try {
        const msg = parseKvloadLine(line);
        switch (msg.event) {
          case 'window-start':
            windowOpen = true;
            observer?.windowStart();
            break;
          case 'window-end':
            if (windowOpen) observer?.windowEnd();
            windowOpen = false;
            break;
          case 'result':
            result = msg.result;
            break;
          case 'error':
            fail(new Error(`kvload: ${msg.message}`));
            break;
          case 'ready':
            break;
        }
      } catch (err) {
        fail(err instanceof Error ? err : new Error(String(err)));
      }
    });
    proc.once('error', (err) => fail(new Error(`could not run ${binary}`, { cause: err })));
    proc.once('close', (code, signal) => {
      clearTimeout(timer);
      const tail = stderr.trim() === '' ? '' : `\nkvload stderr:\n${stderr.trim()}`;
      if (failure !== null) reject(new Error(`${failure.message}${tail}`, { cause: failure }));
      else if (result === null || code !== 0) reject(new Error(`kvload exited (${signal ?? `code ${code}`}) without a result${tail}`));
      else resolve(toLoadResult(result));
    });
  });
}
