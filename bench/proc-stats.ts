/**
 * Memory and CPU of a server process and all its descendants, read from /proc (Linux only).
 * Summing over the tree keeps the numbers honest if a server spreads work over child processes.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface MemoryStats {
  /** Resident set size now, bytes (sum over the tree). */
  readonly rssBytes: number;
  /** Peak resident set size (VmHWM), bytes (sum over the tree). */
  readonly hwmBytes: number;
}

/** The kernel's USER_HZ; 100 on every Linux platform Node supports. */
const CLOCK_TICKS_PER_SECOND = 100;

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ESRCH') return null;
    throw new Error(`reading ${path}`, { cause: err });
  }
}

/** Fields of /proc/<pid>/stat after the `(comm)` field; index 0 is `state`. */
function statFields(pid: number): string[] | null {
  const stat = readOrNull(`/proc/${pid}/stat`);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** `pid` and every live descendant. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(Number(name));
    if (f === null) continue;
    const ppid = Number(f[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const todo = [pid];
  while (todo.length > 0) {
    const p = todo.pop() as number;
    out.push(p);
    todo.push(...(children.get(p) ?? []));
  }
  return out;
}

export function memoryOf(pid: number): MemoryStats {
  let rss = 0;
  let hwm = 0;
  for (const p of processTree(pid)) {
    const status = readOrNull(`/proc/${p}/status`);
    if (status === null) continue;
    rss += kib(status, 'VmRSS');
    hwm += kib(status, 'VmHWM');
  }
  return { rssBytes: rss * 1024, hwmBytes: hwm * 1024 };
}

function kib(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return m ? Number(m[1]) : 0;
}

/** user + system CPU seconds consumed so far by the tree (children that already exited are not counted). */
export function cpuSecondsOf(pid: number): number {
  let ticks = 0;
  for (const p of processTree(pid)) {
    const f = statFields(p);
    if (f === null) continue;
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after `(comm)`.
    ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** CPU seconds the whole machine has spent busy (all cores, everything but idle and iowait). */
export function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal …; guest time is already inside user.
  const busy = f[0] + f[1] + f[2] + f[5] + f[6] + (f[7] ?? 0);
  return busy / CLOCK_TICKS_PER_SECOND;
}
