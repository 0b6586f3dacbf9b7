/**
 * Reaper: a tiny detached process that outlives a test process only to clean up after it.
 *
 * Protocol on stdin, one command per line:
 *   `p+<pid>` / `p-<pid>`   a process group to kill (pid = group leader) / no longer to kill
 *   `d+<path>` / `d-<path>` a directory to remove / no longer to remove
 * When stdin ends (the test process exited in any way, even by SIGKILL) every registered process
 * group gets SIGKILL and every registered directory is removed; then the reaper exits.
 * It is started by registry.ts; it is not a test file and exports nothing useful.
 */
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';

const groups = new Set<number>();
const dirs = new Set<string>();

function apply(line: string): void {
  const kind = line.slice(0, 2);
  const arg = line.slice(2);
  if (kind === 'p+') groups.add(Number(arg));
  else if (kind === 'p-') groups.delete(Number(arg));
  else if (kind === 'd+') dirs.add(arg);
  else if (kind === 'd-') dirs.delete(arg);
}

function reap(): void {
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch (err) {
      // ESRCH: the group is already gone, which is the goal.
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') process.exitCode = 1;
    }
  }
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  process.exit();
}

export function runReaper(): void {
  process.on('SIGINT', () => undefined);
  process.on('SIGHUP', () => undefined);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', apply);
  lines.on('close', reap);
}

if (process.argv[2] === '--reaper') runReaper();
