/**
 * One local member process: spawn (own process group, output appended to its log file, pid
 * file written), liveness by pid (the pid alive AND its command line naming the member's data
 * dir, so a recycled pid is not mistaken for the member), and a graceful stop (SIGTERM to the
 * group, SIGKILL after a grace period), which removes the pid file.
 *
 * Members run in their own process group: a Ctrl-C at the terminal reaches the operator only,
 * which then stops them in order; a killed operator leaves them running, to be adopted.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';

export interface MemberCommand {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly logFile: string;
  readonly pidFile: string;
  /** Written into the log before the run, e.g. the version. */
  readonly banner: string;
}

/** Spawns the member; resolves with its pid once the process exists. */
export async function spawnMember(c: MemberCommand): Promise<PortResult<number>> {
  let fd: number;
  try {
    fd = openSync(c.logFile, 'a');
  } catch (err) {
    return portFail(`open ${c.logFile}: ${(err as Error).message}`);
  }
  try {
    const line = `--- ${new Date().toISOString()} ${c.banner}: ${c.command} ${c.args.join(' ')}\n`;
    await writeFile(c.logFile, line, { flag: 'a' });
    const child = spawn(c.command, [...c.args], { env: { ...process.env, ...c.env }, detached: true, stdio: ['ignore', fd, fd] });
    const pid = await new Promise<PortResult<number>>((resolve) => {
      child.once('spawn', () => resolve(portOk(child.pid ?? -1)));
      child.once('error', (err) => resolve(portFail(`spawn ${c.command}: ${err.message}`)));
    });
    if (!pid.ok) return pid;
    child.unref();
    await writeFile(c.pidFile, `${pid.value}\n`);
    return pid;
  } catch (err) {
    return portFail(`start member: ${(err as Error).message}`);
  } finally {
    closeSync(fd);
  }
}

/** The pid in `pidFile`, undefined when there is none. */
export async function readPid(pidFile: string): Promise<number | undefined> {
  try {
    const n = Number((await readFile(pidFile, 'utf8')).trim());
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined; // no pid file: no process recorded
  }
}

/** True when `pid` runs and its command line mentions `dataDir`. */
export function isAlive(pid: number, dataDir: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false; // ESRCH: no such process (EPERM: not ours, not our member either)
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir);
  } catch {
    return true; // no /proc: trust the pid
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** SIGTERM, wait up to `graceMs`, then SIGKILL; removes the pid file. */
export async function stopMember(pid: number, dataDir: string, pidFile: string, graceMs: number): Promise<void> {
  if (isAlive(pid, dataDir)) {
    signalGroup(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (isAlive(pid, dataDir) && Date.now() < deadline) await sleep(100);
    if (isAlive(pid, dataDir)) {
      signalGroup(pid, 'SIGKILL');
      while (isAlive(pid, dataDir)) await sleep(50);
    }
  }
  await rm(pidFile, { force: true });
}
