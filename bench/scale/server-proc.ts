/**
 * One single-member server for the scale bench (etcd 3.4 or kvstore) on loopback: spawned with
 * etcd's member flags and its output in a log file, waited for until `/health` says true,
 * stopped with SIGTERM (SIGKILL after 20 s). Reads its resident memory from /proc and the size
 * of its data dir. Linux only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface ServerSpec {
  readonly name: 'etcd' | 'kvstore';
  /** Executable and leading arguments. */
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly dataDir: string;
  readonly logFile: string;
  readonly host: string;
  readonly clientPort: number;
  readonly peerPort: number;
}

export interface RunningServer {
  readonly pid: number;
  readonly endpoint: string;
  /** Stops the process (SIGTERM unless told; SIGKILL after 20 s) and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A port free on `host` right now. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function memberArgs(s: ServerSpec): string[] {
  const client = `http://${s.host}:${s.clientPort}`;
  const peer = `http://${s.host}:${s.peerPort}`;
  return [
    '--name', 'scale',
    '--data-dir', s.dataDir,
    '--listen-client-urls', client,
    '--advertise-client-urls', client,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `scale=${peer}`,
    '--quota-backend-bytes', String(8 * 1024 ** 3),
  ];
}

function exited(proc: ChildProcess): boolean {
  return proc.exitCode !== null || proc.signalCode !== null;
}

/** Starts the server; resolves once it is healthy, with the milliseconds that took. */
export async function startServer(s: ServerSpec, timeoutMs = 600_000): Promise<{ server: RunningServer; healthyMs: number }> {
  const started = performance.now();
  const log = createWriteStream(s.logFile, { flags: 'a' });
  const proc = spawn(s.command[0]!, [...s.command.slice(1), ...memberArgs(s)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...s.env } });
  proc.stdout?.pipe(log, { end: false });
  proc.stderr?.pipe(log, { end: false });
  const closed = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  const endpoint = `${s.host}:${s.clientPort}`;
  const server: RunningServer = {
    pid: proc.pid ?? -1,
    endpoint,
    stop: async (signal = 'SIGTERM') => {
      if (!exited(proc)) proc.kill(signal);
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await closed;
      clearTimeout(timer);
      await new Promise<void>((resolve) => log.end(() => resolve()));
    },
  };
  while (!(await healthy(endpoint))) {
    if (exited(proc)) throw new Error(`${s.name} exited while starting (see ${s.logFile})`);
    if (performance.now() - started > timeoutMs) {
      await server.stop();
      throw new Error(`${s.name} not healthy after ${timeoutMs} ms (see ${s.logFile})`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return { server, healthyMs: performance.now() - started };
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(`http://${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { health?: unknown };
    return res.ok && body.health === 'true';
  } catch {
    return false;
  }
}

/** Resident set size of `pid`, bytes. */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (m === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** CPU seconds (user + system) `pid` has used so far. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields after comm: state(0) … utime(11) stime(12), in clock ticks of 1/100 s
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Bytes of the files under `dir` (allocated size as `du` would count is not needed: file sizes). */
export async function dirBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await dirBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}
