/**
 * One server process (an etcd or kvstore member): spawned with its output in a log file, stopped
 * with SIGTERM (SIGKILL after 5 s). The log file is kept after stop() for post-mortems.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';

export interface MemberProcess {
  readonly pid: number;
  readonly logFile: string;
  /** True once the process has exited (crashed, or stopped). */
  exited(): boolean;
  /** How it exited ("code 1", "signal SIGSEGV"), or null while it runs. */
  exitReason(): string | null;
  /** Stops the process; idempotent; resolves once it has exited and the log is flushed. */
  stop(): Promise<void>;
}

/** Spawns `command[0]` with `command[1..] ++ args` (and `extraEnv` added to this process's environment); throws if the executable cannot be spawned. */
export async function spawnMember(command: readonly string[], args: readonly string[], logFile: string, extraEnv: Readonly<Record<string, string>> = {}): Promise<MemberProcess> {
  const log = createWriteStream(logFile);
  const proc = spawn(command[0], [...command.slice(1), ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...extraEnv } });
  proc.stdout?.pipe(log, { end: false });
  proc.stderr?.pipe(log, { end: false });
  const exitedP = new Promise<void>((resolve) => proc.once('close', () => resolve()));
  const spawned = await new Promise<Error | null>((resolve) => {
    proc.once('spawn', () => resolve(null));
    proc.once('error', (err) => resolve(err));
  });
  const logClosed = (): Promise<void> => new Promise((resolve) => log.end(() => resolve()));
  if (spawned !== null || proc.pid === undefined) {
    await logClosed();
    throw new Error(`could not spawn ${command.join(' ')}`, { cause: spawned });
  }
  const pid = proc.pid;
  let stopping: Promise<void> | null = null;
  return {
    pid,
    logFile,
    exited: () => hasExited(proc),
    exitReason: () =>
      proc.signalCode !== null ? `signal ${proc.signalCode}` : proc.exitCode !== null ? `code ${proc.exitCode}` : null,
    stop: () => (stopping ??= kill(proc, exitedP).then(logClosed)),
  };
}

function hasExited(proc: ChildProcess): boolean {
  return proc.exitCode !== null || proc.signalCode !== null;
}

async function kill(proc: ChildProcess, closed: Promise<void>): Promise<void> {
  if (!hasExited(proc)) proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await closed;
  clearTimeout(timer);
}

function listenOnce(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen({ host, port: 0, exclusive: true }, () => resolve(srv));
  });
}

/**
 * `count` distinct ports free on `host` a moment ago: all are held open together while picking
 * (so they never coincide), then released for the member to bind.
 */
export async function freePorts(host: string, count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listenOnce(host));
    return servers.map((srv) => {
      const addr = srv.address();
      if (addr === null || typeof addr === 'string') throw new Error('listener has no TCP address');
      return addr.port;
    });
  } finally {
    await Promise.all(servers.map((srv) => new Promise<void>((resolve) => srv.close(() => resolve()))));
  }
}

/** The last `lines` lines of a log file, or a note saying why it could not be read. */
export function logTail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch (err) {
    return `(no log: ${String(err)})`;
  }
}
