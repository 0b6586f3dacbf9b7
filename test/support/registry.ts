/**
 * Ownership of everything a test process spawns: child processes and temporary directories.
 *
 * Contract:
 * - every spawned server and etcdctl is registered here and runs in its own process group;
 * - `stopAll()` (registered as a top-level `after` hook when this module is first imported
 *   from a test file, and callable directly) kills every live child and removes temp dirs;
 * - if the test process exits without that (uncaught error, signal) an `exit` handler kills the
 *   children synchronously; if it dies by SIGKILL, the reaper process (reaper.ts) notices the end of
 *   its stdin pipe and kills them. So no child outlives its test file.
 * - KEEP_TEST_DIRS=1 keeps temporary directories (their paths are in the members' logs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

const KEEP_DIRS = process.env.KEEP_TEST_DIRS === '1';

/** Live children and temp dirs of this test process. */
class Registry {
  private readonly children = new Set<ChildProcess>();
  private readonly dirs = new Set<string>();
  private reaper: ChildProcess | undefined;
  private exitHooked = false;

  track(child: ChildProcess): void {
    const pid = child.pid;
    if (pid === undefined) return;
    this.hookExit();
    this.children.add(child);
    this.tell(`p+${pid}`);
    child.once('exit', () => {
      this.children.delete(child);
      this.tell(`p-${pid}`);
    });
  }

  tempDir(prefix: string): string {
    this.hookExit();
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    if (!KEEP_DIRS) {
      this.dirs.add(dir);
      this.tell(`d+${dir}`);
    }
    return dir;
  }

  removeDir(dir: string): void {
    if (!this.dirs.delete(dir)) return;
    rmSync(dir, { recursive: true, force: true });
    this.tell(`d-${dir}`);
  }

  /** SIGKILLs every live child (process group) and waits for their exit, then removes temp dirs. */
  async stopAll(): Promise<void> {
    const live = [...this.children];
    await Promise.all(
      live.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            killGroup(child, 'SIGKILL');
          }),
      ),
    );
    for (const dir of [...this.dirs]) this.removeDir(dir);
  }

  private killAllSync(): void {
    for (const child of this.children) killGroup(child, 'SIGKILL');
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }

  private hookExit(): void {
    if (this.exitHooked) return;
    this.exitHooked = true;
    process.on('exit', () => this.killAllSync());
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(sig, () => {
        this.killAllSync();
        process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1));
      });
    }
  }

  private tell(line: string): void {
    const reaper = this.startReaper();
    reaper?.stdin?.write(`${line}\n`);
  }

  private startReaper(): ChildProcess | undefined {
    if (this.reaper !== undefined) return this.reaper;
    const script = fileURLToPath(new URL('./reaper.js', import.meta.url));
    const reaper = spawn(process.execPath, [script, '--reaper'], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    reaper.unref();
    (reaper.stdin as unknown as Socket | null)?.unref();
    reaper.stdin?.on('error', () => undefined);
    this.reaper = reaper;
    return reaper;
  }
}

/** Sends `signal` to the child's whole process group (it was spawned detached, so pgid = pid). */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw new Error(`cannot signal process group ${child.pid}`, { cause: err });
  }
}

/** The registry of this test process (one per process: test files run in separate processes). */
export const registry = new Registry();

/** Kills every child this test process spawned and removes its temp dirs. Safe to call twice. */
export function stopAll(): Promise<void> {
  return registry.stopAll();
}

/** A new temp directory removed by `stopAll` (or at exit). */
export function makeTempDir(prefix = 'kvstore-test'): string {
  return registry.tempDir(prefix);
}

// Top-level hook on the root test of the importing test file.
after(() => stopAll());
