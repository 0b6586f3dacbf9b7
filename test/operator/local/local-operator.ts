/**
 * Test harness for `kvstore-operator local`: write a manifest into a temp dir, spawn the
 * operator on it (own process group, owned by the test registry), read the status it writes
 * back, and clean up the members it started: they run in their own process groups and outlive
 * a killed operator, so every pid seen in the cluster dir is remembered (the registry removes the
 * temp dirs first) and, at the end of the file, SIGKILLed with its group if its command line
 * still names the cluster dir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import type { KvstoreClusterStatus } from '../../../operator/api/types.js';
import { BUILD_ROOT } from '../../support/paths.js';
import { eventually } from '../../support/eventually.js';
import { makeTempDir } from '../../support/processes.js';
import { killGroup, registry } from '../../support/registry.js';

const OPERATOR_MAIN = join(BUILD_ROOT, 'operator', 'main.js');
const clusterDirs = new Set<string>();
/** Member pid → its cluster dir. */
const seenPids = new Map<number, string>();

/** Remembers the pids of the members with a pid file in `dir`. */
export function notePids(dir: string): void {
  if (!existsSync(dir)) return;
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.pid'))) {
    try {
      const pid = Number(readFileSync(join(dir, f), 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0) seenPids.set(pid, dir);
    } catch {
      // removed between the listing and the read: that member stopped
    }
  }
}

function killMember(pid: number, dir: string): void {
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)) return;
  } catch {
    return; // gone
  }
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

after(() => {
  for (const d of clusterDirs) notePids(d);
  for (const [pid, dir] of seenPids) killMember(pid, dir);
});

/** Writes `manifest` to `<fresh temp dir>/cluster.yaml`; returns the file and the cluster dir. */
/**
 * Edits the manifest the way an editor that saves by rename does, so the operator never reads
 * it half-written (it writes its status the same way).
 */
export function editManifest(file: string, edit: (text: string) => string): void {
  const temp = `${file}.editing`;
  writeFileSync(temp, edit(readFileSync(file, 'utf8')));
  renameSync(temp, file);
}

export function writeManifest(manifest: string, clusterName: string): { file: string; clusterDir: string } {
  const dir = makeTempDir('operator-local');
  const file = join(dir, 'cluster.yaml');
  writeFileSync(file, manifest);
  const clusterDir = join(dir, `${clusterName}.kvstore`);
  clusterDirs.add(clusterDir);
  return { file, clusterDir };
}

export class LocalOperator {
  private output = '';
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  /**
   * Runs `kvstore-operator local -f file --log-level debug …extraArgs`; with `launch.script`,
   * `node <script> …extraArgs` in `launch.cwd` instead (e.g. scripts/start-local.mjs, what
   * `npm start` runs, which finds its manifest itself).
   */
  constructor(
    file: string,
    private readonly clusterDir: string,
    extraArgs: readonly string[] = [],
    launch: { readonly script: string; readonly cwd: string } | undefined = undefined,
  ) {
    clusterDirs.add(clusterDir);
    const args = launch === undefined ? [OPERATOR_MAIN, 'local', '-f', file, '--log-level', 'debug', ...extraArgs] : [launch.script, ...extraArgs];
    this.child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], ...(launch === undefined ? {} : { cwd: launch.cwd }) });
    // Kept in memory and in <cluster dir>/../operator.log (for KEEP_TEST_DIRS=1 post-mortems).
    const logFile = join(clusterDir, '..', 'operator.log');
    const keep = (s: string): void => {
      this.output += s;
      try {
        appendFileSync(logFile, s);
      } catch {
        // no such directory (a test of a missing manifest): memory only
      }
    };
    this.child.stdout?.setEncoding('utf8').on('data', keep);
    this.child.stderr?.setEncoding('utf8').on('data', keep);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    registry.track(this.child);
  }

  logs(): string {
    return this.output;
  }

  /** The /metrics URL logged at start (with --metrics-bind-address), once it is logged. */
  async metricsUrl(timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = /"metrics":"(http:\/\/[^"]+\/metrics)"/.exec(this.output);
      if (m !== null) return m[1]!;
      if (Date.now() > deadline) throw new Error(`no metrics URL logged; output:\n${this.output}`);
      await sleep(100);
    }
  }

  clusterDirOf(): string {
    return this.clusterDir;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    notePids(this.clusterDir);
    killGroup(this.child, signal);
    return this.exited;
  }
}

/** The operator's `status written` log records, in order (phase, clusterVersion, readyMembers, upgrade, member). */
export function statusWrites(op: LocalOperator): Record<string, string>[] {
  return op.logs().split('\n').flatMap((l) => {
    if (!l.startsWith('{')) return [];
    try {
      const r = JSON.parse(l) as Record<string, string>;
      return r.msg === 'status written' ? [r] : [];
    } catch {
      return [];
    }
  });
}

/** The status the operator wrote into `file` (undefined before the first write). */
export function statusIn(file: string): KvstoreClusterStatus | undefined {
  try {
    const doc = parse(readFileSync(file, 'utf8')) as { status?: KvstoreClusterStatus };
    return doc.status;
  } catch {
    return undefined; // caught between writes; the caller polls again
  }
}

/** Polls the file's status until `ok` holds; fails with the last status and the operator's log tail. */
export async function waitStatus(file: string, what: string, ok: (s: KvstoreClusterStatus) => boolean, op: LocalOperator, timeoutMs = 120_000): Promise<KvstoreClusterStatus> {
  const deadline = Date.now() + timeoutMs;
  let last: KvstoreClusterStatus | undefined;
  for (;;) {
    last = statusIn(file) ?? last;
    notePids(op.clusterDirOf());
    if (last !== undefined && ok(last)) return last;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}; last status:\n${JSON.stringify(last, null, 2)}\noperator log tail:\n${op.logs().split('\n').slice(-40).join('\n')}`);
    }
    await sleep(250);
  }
}

/** `host:port` of every member the status lists. */
export const endpointsOf = (s: KvstoreClusterStatus): string[] => s.members.map((m) => m.clientURL.replace(/^http:\/\//, ''));

/** Events recorded in `<cluster dir>/events.log`. */
export function eventsIn(clusterDir: string): { type: string; reason: string; message: string }[] {
  const f = join(clusterDir, 'events.log');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { type: string; reason: string; message: string });
}

/**
 * The events once at least `count` of them have `reason`: the operator writes a pass's status
 * before it records the pass's events, so a test that saw the status waits for them here.
 */
export function eventsWith(clusterDir: string, reason: string, count = 1): Promise<{ type: string; reason: string; message: string }[]> {
  let last: { reason: string }[] = [];
  return eventually(`${count} ${reason} event(s) in ${clusterDir}`, () => {
    const events = eventsIn(clusterDir);
    last = events;
    return Promise.resolve(events.filter((e) => e.reason === reason).length >= count ? events : undefined);
  }, { describe: () => last.map((e) => e.reason).join(', ') });
}

/**
 * Keeps `mark(endpoint, on)` in step with the member the operator announces it is taking down
 * (`status.upgrade.currentMember`, written before the member is stopped), polling every 50 ms,
 * as a maintenance-aware client would. Returns the stopper.
 */
export function followMaintenance(file: string, mark: (endpoint: string, on: boolean) => void): () => void {
  let current: string | undefined;
  const timer = setInterval(() => {
    const s = statusIn(file);
    if (s === undefined) return;
    const name = s.upgrade?.currentMember;
    const url = name === undefined ? undefined : s.members.find((m) => m.name === name)?.clientURL.replace(/^http:\/\//, '');
    if (url === current) return;
    if (current !== undefined) mark(current, false);
    if (url !== undefined) mark(url, true);
    current = url;
  }, 50);
  return () => clearInterval(timer);
}
