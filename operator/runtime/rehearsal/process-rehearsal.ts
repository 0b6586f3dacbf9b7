/**
 * `RehearsalPlatform` with a child process of the operator (local mode, and the Kubernetes
 * operator pod, whose image carries the same server build): the scratch member of an upgrade
 * rehearsal is one `kvstore` process (KVSTORE_SERVER_VERSION = the target) on a free loopback
 * address, its data dir restored from the snapshot file with the code `kvstorectl snapshot
 * restore` uses (server/snapshot/restore), as a single member (`rehearsal`) of a cluster of its
 * own — it never talks to the real members. Its files sit in the cluster's rehearsal directory
 * (`dirOf`: local mode `<cluster>.kvstore/`, Kubernetes `<snapshot dir>/.rehearsals/<ns>-<name>/`):
 *
 *   rehearsal.data/   its data dir
 *   rehearsal.log     restore messages, then the process output
 *   rehearsal.pid     its pid while it runs
 *
 * Contract: `start` removes any earlier scratch member first (also one left by an operator that
 * was killed: found by its pid file), reads the expected figures from the snapshot file
 * (snapshot-figures.ts), restores and spawns; a restore that fails is reported by `observe` as
 * phase Failed with the log tail, not as a failed action. What this object knows of the scratch
 * members (one per cluster at most) lives in memory only: a restarted operator observes none
 * (and rehearses again).
 * Plain http, no TLS: only the operator talks to it, on loopback.
 */
import { open, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { KvstoreCluster } from '../../api/types.js';
import { optionFlags } from '../../controller/builders/member-args.js';
import { portOk, type EngineLogger, type PortResult, type RehearsalPlatform, type ScratchView } from '../../controller/ports.js';
import { openBolt } from '../../../server/snapshot/bbolt/index.js';
import { restoreDataDir } from '../../../server/snapshot/restore/build-data-dir.js';
import { parseRestoreTarget } from '../../../server/snapshot/restore/restore-target.js';
import { pickLoopback } from '../local/loopback.js';
import { isAlive, readPid, spawnMember, stopMember } from '../local/member-process.js';
import { snapshotFigures } from './snapshot-figures.js';

export interface ProcessRehearsalDeps {
  /** The directory of one cluster's rehearsal files (created on start). */
  readonly dirOf: (cluster: KvstoreCluster) => string;
  /** Path of the member entry point (dist/server/main.js); run with process.execPath. */
  readonly kvstoreMain: string;
  readonly logger: EngineLogger;
  readonly random: () => number;
  /** A remark every observation carries (ScratchView.note): the Kubernetes operator's fallback says it does not rehearse the member image. */
  readonly note?: string;
  /** SIGTERM → SIGKILL grace of a scratch member (default 5 s). */
  readonly stopGraceMs?: number;
}

/** Lines of the log an observation carries. */
export const LOG_TAIL_LINES = 20;
const TAIL_BYTES = 16 * 1024;

interface Scratch {
  readonly id: string;
  readonly dir: string;
  phase: ScratchView['phase'];
  clientURL: string;
  pid?: number;
  expected?: { readonly revision: number; readonly keys: number };
  error?: string;
}

/** The last `lines` lines of `file` ('' when it cannot be read). */
export async function logTail(file: string, lines = LOG_TAIL_LINES): Promise<string> {
  try {
    const f = await open(file, 'r');
    try {
      const { size } = await f.stat();
      const from = Math.max(0, size - TAIL_BYTES);
      const buf = Buffer.alloc(size - from);
      await f.read(buf, 0, buf.length, from);
      const text = buf.toString('utf8').split('\n');
      if (text.at(-1) === '') text.pop();
      return text.slice(-lines).join('\n') + (text.length > 0 ? '\n' : '');
    } finally {
      await f.close();
    }
  } catch {
    return ''; // no log yet
  }
}

export class ProcessRehearsal implements RehearsalPlatform {
  /** By rehearsal directory. */
  private readonly scratches = new Map<string, Scratch>();

  constructor(private readonly deps: ProcessRehearsalDeps) {}

  async start(cluster: KvstoreCluster, id: string, snapshotPath: string, version: string): Promise<PortResult<void>> {
    await this.cleanup(cluster);
    const dir = this.deps.dirOf(cluster);
    const files = filesOf(dir);
    const s: Scratch = { id, dir, phase: 'Starting', clientURL: '' };
    this.scratches.set(dir, s);
    const fail = async (error: string): Promise<PortResult<void>> => {
      s.phase = 'Failed';
      s.error = error;
      await writeFile(files.log, `${error}\n`, { flag: 'a' }).catch(() => undefined);
      this.deps.logger.warn({ cluster: cluster.metadata.name, rehearsal: id, error }, 'rehearsal failed to start');
      return portOk(undefined);
    };
    await mkdir(dir, { recursive: true });
    await writeFile(files.log, `--- ${new Date().toISOString()} rehearsal ${id}: restoring ${snapshotPath} for ${version}\n`);
    const addr = await pickLoopback(this.deps.random);
    const client = `http://${addr.host}:${addr.clientPort}`;
    const peer = `http://${addr.host}:${addr.peerPort}`;
    const target = parseRestoreTarget({ name: 'rehearsal', initialCluster: `rehearsal=${peer}`, initialClusterToken: `rehearsal-${id}`, initialAdvertisePeerUrls: peer });
    if (!target.ok) return fail(`restore: ${target.message}`);
    const restored = await restoreDataDir({ snapshotPath, dataDir: files.data, skipHashCheck: false, target: target.target }, { openSnapshot: openBolt });
    if (!restored.ok) return fail(`restore: ${restored.message}`);
    const figures = await snapshotFigures(snapshotPath);
    if (!figures.ok) return fail(figures.error);
    s.expected = figures.value;
    await writeFile(files.log, `restored snapshot: revision ${figures.value.revision}, ${figures.value.keys} keys\n`, { flag: 'a' });
    const r = await spawnMember({
      command: process.execPath,
      args: [
        this.deps.kvstoreMain,
        '--name=rehearsal',
        `--data-dir=${files.data}`,
        `--listen-client-urls=${client}`,
        `--advertise-client-urls=${client}`,
        `--listen-peer-urls=${peer}`,
        `--initial-advertise-peer-urls=${peer}`,
        `--initial-cluster=rehearsal=${peer}`,
        `--initial-cluster-token=rehearsal-${id}`,
        '--initial-cluster-state=new',
        ...optionFlags(cluster.spec.options, version),
      ],
      env: { KVSTORE_SERVER_VERSION: version },
      logFile: files.log,
      pidFile: files.pid,
      banner: `rehearsal ${id} at ${version}`,
    });
    if (!r.ok) return fail(r.error);
    s.pid = r.value;
    s.phase = 'Running';
    s.clientURL = client;
    this.deps.logger.info({ cluster: cluster.metadata.name, rehearsal: id, pid: r.value, version, clientURL: client }, 'started rehearsal member');
    return portOk(undefined);
  }

  async observe(cluster: KvstoreCluster): Promise<PortResult<ScratchView | undefined>> {
    const s = this.scratches.get(this.deps.dirOf(cluster));
    if (s === undefined) return portOk(undefined);
    const files = filesOf(s.dir);
    if (s.phase === 'Running' && (s.pid === undefined || !isAlive(s.pid, files.data))) {
      s.phase = 'Failed';
      s.error = 'the scratch member exited';
    }
    return portOk({
      id: s.id,
      phase: s.phase,
      clientURL: s.clientURL,
      ...(s.expected === undefined ? {} : { expected: s.expected }),
      ...(s.error === undefined ? {} : { error: s.error }),
      logTail: await logTail(files.log),
      ...(this.deps.note === undefined ? {} : { note: this.deps.note }),
    });
  }

  async cleanup(cluster: KvstoreCluster): Promise<PortResult<void>> {
    const dir = this.deps.dirOf(cluster);
    await this.remove(dir, this.scratches.get(dir)?.pid);
    return portOk(undefined);
  }

  /** Stops every scratch member this object started (operator shutdown). */
  async stopAll(): Promise<void> {
    for (const [dir, s] of [...this.scratches]) await this.remove(dir, s.pid);
  }

  private async remove(dir: string, known: number | undefined): Promise<void> {
    const files = filesOf(dir);
    const pid = known ?? (await readPid(files.pid));
    this.scratches.delete(dir);
    if (pid !== undefined) await stopMember(pid, files.data, files.pid, this.deps.stopGraceMs ?? 5000);
    await rm(files.pid, { force: true });
    await rm(files.data, { recursive: true, force: true });
  }
}

function filesOf(dir: string): { readonly data: string; readonly log: string; readonly pid: string } {
  return { data: join(dir, 'rehearsal.data'), log: join(dir, 'rehearsal.log'), pid: join(dir, 'rehearsal.pid') };
}
