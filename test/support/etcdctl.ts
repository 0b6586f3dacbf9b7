/**
 * Running the real etcdctl 3.4 (ETCDCTL_API=3) against members.
 *
 * `etcdctl()` runs one command to completion (stdin from `input`), bounded by `timeoutMs`
 * (SIGKILL when exceeded; the result then has `timedOut: true` and `code: null`).
 * `spawnEtcdctl()` starts a long-running command (watch, lock, elect, lease keep-alive) whose
 * output a test waits on, and which it then interrupts. Both are owned by the registry.
 * The parent's ETCDCTL_* variables are not inherited, so only the arguments given here count.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { ETCDCTL_BIN } from './paths.js';
import { killGroup, registry } from './registry.js';

/** What one etcdctl run produced. */
export interface CtlResult {
  /** Exit code; null when the process ended by a signal. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Options of `etcdctl`. */
export interface CtlOptions {
  /** Written to stdin, which is then closed (stdin is empty otherwise). */
  readonly input?: string | Buffer;
  /** Extra environment variables (ETCDCTL_API=3 is always set). */
  readonly env?: Readonly<Record<string, string>>;
  /** Kill after this long (default 20 s). */
  readonly timeoutMs?: number;
}

function ctlEnv(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith('ETCDCTL_')) env[k] = v;
  }
  return { ...env, ETCDCTL_API: '3', ...(extra ?? {}) };
}

function ctlArgs(endpoints: string | readonly string[], args: readonly string[]): string[] {
  const list = typeof endpoints === 'string' ? [endpoints] : endpoints;
  return [`--endpoints=${list.join(',')}`, ...args];
}

/** A started etcdctl whose output accumulates while it runs. */
export class CtlProcess {
  private out = '';
  private err = '';
  private readonly done: Promise<CtlResult>;
  private timedOut = false;

  constructor(private readonly child: ChildProcess) {
    child.stdout?.setEncoding('utf8').on('data', (s: string) => (this.out += s));
    child.stderr?.setEncoding('utf8').on('data', (s: string) => (this.err += s));
    this.done = new Promise((resolve, reject) => {
      child.once('error', (err) => reject(new Error(`cannot run ${ETCDCTL_BIN}`, { cause: err })));
      child.once('close', (code, signal) =>
        resolve({ code, signal, stdout: this.out, stderr: this.err, timedOut: this.timedOut }),
      );
    });
    registry.track(child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  stdout(): string {
    return this.out;
  }

  stderr(): string {
    return this.err;
  }

  /**
   * Resolves with stdout once `until` holds for it (a string is searched for, a RegExp tested);
   * rejects if the process ends first or after `timeoutMs` (default 15 s).
   */
  async waitFor(until: string | RegExp | ((stdout: string) => boolean), timeoutMs = 15_000): Promise<string> {
    const test = typeof until === 'function' ? until : typeof until === 'string' ? (s: string) => s.includes(until) : (s: string) => until.test(s);
    const deadline = Date.now() + timeoutMs;
    let ended = false;
    void this.done.then(() => (ended = true), () => (ended = true));
    for (;;) {
      if (test(this.out)) return this.out;
      if (ended) throw new Error(`etcdctl ended before ${String(until)}; stdout:\n${this.out}\nstderr:\n${this.err}`);
      if (Date.now() > deadline) throw new Error(`etcdctl: no ${String(until)} after ${timeoutMs} ms; stdout:\n${this.out}\nstderr:\n${this.err}`);
      await sleep(50);
    }
  }

  /** Writes to stdin (for interactive commands such as `watch -i`). */
  write(text: string): void {
    this.child.stdin?.write(text);
  }

  /** Closes stdin. */
  endInput(): void {
    this.child.stdin?.end();
  }

  /** Sends `signal` (default SIGINT, which lock/elect/watch handle) and resolves with the result. */
  async stop(signal: NodeJS.Signals = 'SIGINT'): Promise<CtlResult> {
    killGroup(this.child, signal);
    const grace = setTimeout(() => killGroup(this.child, 'SIGKILL'), 10_000);
    try {
      return await this.done;
    } finally {
      clearTimeout(grace);
    }
  }

  /** Resolves when the process ends by itself. */
  result(): Promise<CtlResult> {
    return this.done;
  }

  /** Marks the result as timed out and kills the process. */
  timeout(): void {
    this.timedOut = true;
    killGroup(this.child, 'SIGKILL');
  }
}

/** Starts `etcdctl --endpoints=<endpoints> <args…>` and returns at once. */
export function spawnEtcdctl(
  endpoints: string | readonly string[],
  args: readonly string[],
  opts: { readonly env?: Readonly<Record<string, string>>; readonly stdin?: boolean } = {},
): CtlProcess {
  const child = spawn(ETCDCTL_BIN, ctlArgs(endpoints, args), {
    env: ctlEnv(opts.env),
    detached: true,
    stdio: [opts.stdin === true ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  return new CtlProcess(child);
}

/** Runs `etcdctl --endpoints=<endpoints> <args…>` to completion. */
export async function etcdctl(endpoints: string | readonly string[], args: readonly string[], opts: CtlOptions = {}): Promise<CtlResult> {
  const child = spawn(ETCDCTL_BIN, ctlArgs(endpoints, args), {
    env: ctlEnv(opts.env),
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const proc = new CtlProcess(child);
  child.stdin?.on('error', () => undefined);
  child.stdin?.end(opts.input ?? '');
  const timer = setTimeout(() => proc.timeout(), opts.timeoutMs ?? 20_000);
  try {
    return await proc.result();
  } finally {
    clearTimeout(timer);
  }
}
