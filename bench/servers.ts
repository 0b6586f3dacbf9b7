/**
 * Starts and stops the two servers under test: a single-member real etcd and a single-member
 * kvstore, each on its own loopback address and fresh temporary data dir, both given the same
 * etcd-style flags. `stop()` kills the process (SIGTERM, then SIGKILL) and removes the data dir;
 * the server's output stays in `logFile`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Metadata } from '@grpc/grpc-js';
import { openKv } from './load/channel.js';

export const SERVER_NAMES = ['etcd', 'kvstore'] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

export interface ServerConfig {
  readonly name: ServerName;
  /** Executable and leading arguments, e.g. ['/usr/bin/etcd'] or [process.execPath, 'dist/server/main.js']. */
  readonly command: readonly string[];
  /** Loopback address to bind, distinct per server (127.0.0.2, 127.0.0.3, …). */
  readonly host: string;
  /** Extra flags appended after the common ones. */
  readonly extraArgs: readonly string[];
  /** Where the server's stdout and stderr go; kept after stop() for post-mortems. */
  readonly logFile: string;
}

export interface RunningServer {
  readonly name: ServerName;
  readonly pid: number;
  /** host:port of the gRPC client endpoint. */
  readonly target: string;
  readonly dataDir: string;
  readonly logFile: string;
  /** True once the process has exited (crashed, or stopped). */
  exited(): boolean;
  stop(): Promise<void>;
}

/** A port free on `host` right now (bind to 0, read, close). */
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

/** The flags both etcd and kvstore understand, for one member named `member`. */
export function memberArgs(member: string, dataDir: string, host: string, clientPort: number, peerPort: number): string[] {
  const client = `http://${host}:${clientPort}`;
  const peer = `http://${host}:${peerPort}`;
  return [
    '--name', member,
    '--data-dir', dataDir,
    '--listen-client-urls', client,
    '--advertise-client-urls', client,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `${member}=${peer}`,
    '--initial-cluster-state', 'new',
  ];
}

export async function startServer(cfg: ServerConfig): Promise<RunningServer> {
  const dataRoot = mkdtempSync(join(tmpdir(), `bench-${cfg.name}-`));
  const dataDir = join(dataRoot, 'data');
  const logFile = cfg.logFile;
  const [clientPort, peerPort] = [await freePort(cfg.host), await freePort(cfg.host)];
  const args = [...cfg.command.slice(1), ...memberArgs(`bench-${cfg.name}`, dataDir, cfg.host, clientPort, peerPort), ...cfg.extraArgs];
  const log = createWriteStream(logFile);
  const proc = spawn(cfg.command[0], args, { stdio: ['ignore', 'pipe', 'pipe'] });
  proc.stdout?.pipe(log);
  proc.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const target = `${cfg.host}:${clientPort}`;
  const stop = async (): Promise<void> => {
    await kill(proc, exited);
    log.end();
    rmSync(dataRoot, { recursive: true, force: true });
  };
  if (proc.pid === undefined) {
    await stop();
    throw new Error(`could not spawn ${cfg.command.join(' ')}`);
  }
  try {
    await waitServing(target, proc, 30_000);
  } catch (err) {
    const tail = safeTail(logFile);
    await stop();
    throw new Error(`${cfg.name} did not become ready; log tail:\n${tail}`, { cause: err });
  }
  const hasExited = (): boolean => proc.exitCode !== null || proc.signalCode !== null;
  return { name: cfg.name, pid: proc.pid, target, dataDir, logFile, exited: hasExited, stop };
}

async function kill(proc: ChildProcess, exited: Promise<void>): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** Polls a linearizable Range until it succeeds (the member has a leader and serves). */
async function waitServing(target: string, proc: ChildProcess, timeoutMs: number): Promise<void> {
  const kv = openKv(target);
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  try {
    while (Date.now() < deadline) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        throw new Error(`exited with code ${proc.exitCode} signal ${proc.signalCode}`);
      }
      const err = await new Promise<Error | null>((resolve) => {
        kv.range(
          { key: Buffer.from('bench/ready'), rangeEnd: Buffer.alloc(0), limit: 0n, revision: 0n, sortOrder: 0, sortTarget: 0,
            serializable: false, keysOnly: false, countOnly: false, minModRevision: 0n, maxModRevision: 0n,
            minCreateRevision: 0n, maxCreateRevision: 0n },
          new Metadata(),
          { deadline: Date.now() + 1000 },
          (e) => resolve(e),
        );
      });
      if (err === null) return;
      last = err;
      await sleep(200);
    }
    throw new Error(`not serving within ${timeoutMs} ms`, { cause: last });
  } finally {
    kv.close();
  }
}

function safeTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-30).join('\n');
  } catch (err) {
    return `(no log: ${String(err)})`;
  }
}
