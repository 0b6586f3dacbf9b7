/**
 * One spawned server member (kvstore or etcd): start, readiness, logs, stop, kill -9, restart.
 *
 * Contract:
 * - the process runs in its own process group on its own loopback host; signals go to the group;
 * - `start()` resolves once the member serves: GET /health answers 200 (or 404 when the server
 *   has no /health), or the client port accepts connections but does not speak HTTP/1.1;
 *   a 503 (no leader yet) keeps waiting. It rejects, with the log tail, if the process exits
 *   first or readiness takes longer than `readyTimeoutMs`;
 * - `restart()` starts the same command line (same ports, same data dir) again; `restart({ env })`
 *   replaces the member's extra environment first (e.g. another KVSTORE_SERVER_VERSION: the same
 *   member on another binary), and that environment stays for later restarts;
 * - `exited()` resolves with the exit code of the current (or last) run once it has ended;
 * - `logs()` holds stdout and stderr of every run, interleaved as they arrived.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MemberAddress } from './addresses.js';
import { killGroup, registry } from './registry.js';

/** Which implementation a member runs. */
export type ServerKind = 'kvstore' | 'etcd';

/** How to run one member. */
export interface ServerSpec {
  readonly kind: ServerKind;
  readonly address: MemberAddress;
  readonly dataDir: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Working directory of the process (default: the test's); relative `unix://` socket names live there. */
  readonly cwd?: string;
  readonly readyTimeoutMs: number;
  /** false: resolve `start()` as soon as the process is spawned (e.g. a member that cannot be ready alone). */
  readonly waitReady: boolean;
}

/** Options of `Member.restart`. */
export interface RestartOptions {
  /** The member's extra environment from now on (replaces the one it was started with). */
  readonly env?: Readonly<Record<string, string>>;
  /** Wait for readiness (default: as when the member was started); false resolves once the process is spawned. */
  readonly waitReady?: boolean;
}

/** A running (or stopped) member, as tests see it. */
export interface Member {
  readonly kind: ServerKind;
  readonly name: string;
  /** `http://host:port` of the client listener. */
  readonly clientUrl: string;
  /** `host:port`, the form etcdctl's --endpoints takes. */
  readonly endpoint: string;
  /** `http://host:port` of the peer listener. */
  readonly peerUrl: string;
  readonly host: string;
  readonly dataDir: string;
  /** pid of the current (or last) process. */
  readonly pid: number;
  /** true while the process has not exited. */
  readonly running: boolean;
  /** stdout and stderr of every run so far. */
  logs(): string;
  /** Sends `signal` (default SIGTERM; SIGKILL after 15 s) and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL, resolved once the process is gone. */
  kill9(): Promise<void>;
  /**
   * Stops the member if it runs, then starts it again with the same flags, ports and data dir
   * (and `opts.env`, when given, as its extra environment from now on). Rejects, with the log
   * tail, when the new run exits before it is ready.
   */
  restart(opts?: RestartOptions): Promise<void>;
  /** Exit code of the current (or last) run once it has ended (null when killed by a signal). */
  exited(): Promise<number | null>;
  /** The extra environment the member runs with (as started, or as set by `restart({ env })`). */
  readonly env: Readonly<Record<string, string>>;
}

const LOG_LIMIT = 4 * 1024 * 1024;
const STOP_GRACE_MS = 15_000;

/** Result of one /health probe. */
type Probe = 'ready' | 'not-ready' | 'refused';

function probeHealth(clientUrl: string): Promise<Probe> {
  return new Promise((resolve) => {
    let connected = false;
    const req = request(`${clientUrl}/health`, { method: 'GET', timeout: 1000 }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      resolve(status === 200 || status === 404 ? 'ready' : 'not-ready');
    });
    req.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    req.on('timeout', () => req.destroy(new Error('health probe timed out')));
    // Connected but no HTTP/1.1 answer: a gRPC-only port that accepts connections counts as ready.
    req.on('error', () => resolve(connected ? 'ready' : 'refused'));
    req.end();
  });
}

export class ServerProcess implements Member {
  private child: ChildProcess | undefined;
  private exitPromise: Promise<number | null> = Promise.resolve(null);
  private output = '';
  private runs = 0;
  private currentEnv: Readonly<Record<string, string>>;

  constructor(private readonly spec: ServerSpec) {
    this.currentEnv = spec.env;
  }

  get kind(): ServerKind { return this.spec.kind; }
  get name(): string { return this.spec.address.name; }
  get clientUrl(): string { return this.spec.address.clientUrl; }
  get endpoint(): string { return this.spec.address.endpoint; }
  get peerUrl(): string { return this.spec.address.peerUrl; }
  get host(): string { return this.spec.address.host; }
  get dataDir(): string { return this.spec.dataDir; }
  get env(): Readonly<Record<string, string>> { return this.currentEnv; }
  get pid(): number { return this.child?.pid ?? -1; }
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  logs(): string {
    return this.output;
  }

  /** Spawns the process and waits for readiness unless `waitReady` is false (see the file header). */
  async start(waitReady: boolean = this.spec.waitReady): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.runs += 1;
    const envText = Object.entries(this.currentEnv).map(([k, v]) => `${k}=${v} `).join('');
    this.append(`--- ${this.spec.kind} ${this.name} run ${this.runs}: ${envText}${this.spec.command} ${this.spec.args.join(' ')}\n`);
    const child = spawn(this.spec.command, [...this.spec.args], {
      env: { ...process.env, ...this.currentEnv },
      cwd: this.spec.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exitPromise = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.append(`--- exited: code ${code ?? '-'} signal ${signal ?? '-'}\n`);
        resolve(code);
      });
    });
    child.stdout?.setEncoding('utf8').on('data', (s: string) => this.append(s));
    child.stderr?.setEncoding('utf8').on('data', (s: string) => this.append(s));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err) => reject(new Error(`cannot spawn ${this.spec.command}`, { cause: err })));
    });
    registry.track(child);
    if (waitReady) await this.waitReady(child);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (child === undefined || !this.running) return this.exitPromise;
    killGroup(child, signal);
    const grace = setTimeout(() => killGroup(child, 'SIGKILL'), STOP_GRACE_MS);
    try {
      return await this.exitPromise;
    } finally {
      clearTimeout(grace);
    }
  }

  async kill9(): Promise<void> {
    await this.stop('SIGKILL');
  }

  async restart(opts: RestartOptions = {}): Promise<void> {
    await this.stop();
    if (opts.env !== undefined) this.currentEnv = { ...opts.env };
    await this.start(opts.waitReady ?? this.spec.waitReady);
  }

  exited(): Promise<number | null> {
    return this.exitPromise;
  }

  private append(text: string): void {
    this.output += text;
    if (this.output.length > LOG_LIMIT) this.output = this.output.slice(this.output.length - LOG_LIMIT / 2);
  }

  private async waitReady(child: ChildProcess): Promise<void> {
    const deadline = Date.now() + this.spec.readyTimeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${this.spec.kind} ${this.name} exited before it was ready; log tail:\n${this.tail()}`);
      }
      if ((await probeHealth(this.clientUrl)) === 'ready') return;
      if (Date.now() > deadline) {
        await this.stop('SIGKILL');
        throw new Error(`${this.spec.kind} ${this.name} not ready after ${this.spec.readyTimeoutMs} ms; log tail:\n${this.tail()}`);
      }
      await sleep(100);
    }
  }

  private tail(): string {
    return this.output.split('\n').slice(-40).join('\n');
  }
}
