/**
 * `snapshot restore`: builds a kvstore data dir from a snapshot file (kvstore's or real etcd's).
 *
 * Order, as etcdctl: check the new membership; refuse an existing data dir (or --wal-dir);
 * check the SHA-256 trailer; then build. The data dir is assembled under `<data-dir>.restoring`
 * and renamed into place only when complete, so a failed restore leaves no data dir behind
 * (a stale `.restoring` from a crash is removed by the next attempt):
 *   <data-dir>/member/snap/db   the level backend: the snapshot's buckets (backend-rewrite.ts)
 *   <data-dir>/member/wal/      (or --wal-dir) the log of restore-plan.ts: founding entries,
 *                               hard state {term 1, commit N}, snapshot marker {N, term 1}
 * A member started on it with the same --name/--initial-cluster/--initial-cluster-token/
 * --initial-advertise-peer-urls (--initial-cluster-state is not read: the WAL exists) restarts
 * from index N with every member as a voter and the snapshot's revisions.
 */
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { syncDir } from '../../storage/sync-dir.js';
import { openWal } from '../../wal/index.js';
import { finalOps } from './backend-rewrite.js';
import { copyBuckets } from './copy-buckets.js';
import { goPathError } from './go-errors.js';
import { checkSnapshotHash } from './hash-check.js';
import { planRestore, type RestorePlan, type RestoreTarget } from './restore-plan.js';


export interface RestoreOptions {
  readonly snapshotPath: string;
  readonly dataDir: string;
  /** A WAL directory outside the data dir (etcd's --wal-dir); default `<data-dir>/member/wal`. */
  readonly walDir?: string;
  readonly skipHashCheck: boolean;
  readonly target: RestoreTarget;
}

/** The bucket reader restore reads the snapshot through (the bbolt reader in production). */
export interface SnapshotReader {
  bucketNames(): readonly string[];
  entries(bucket: string): AsyncIterable<readonly [Buffer, Buffer]>;
  close(): Promise<void>;
}

export interface RestorePorts {
  readonly openSnapshot: (path: string) => Promise<SnapshotReader>;
  /** Progress of the two passes: `phase` 'verify' (hashing the file) then 'copy' (entries). */
  readonly onProgress?: (phase: 'verify' | 'copy', done: number, total: number) => void;
  /** Called once membership and directories checked out, before the file is read (the "restoring snapshot" log line). */
  readonly onStart?: (plan: RestorePlan) => void;
}

export interface Restored {
  readonly plan: RestorePlan;
  /** Buckets of the snapshot kvstore has no place for (not copied). */
  readonly skippedBuckets: readonly string[];
  /** Entries copied from the snapshot. */
  readonly copied: number;
}

export type RestoreOutcome = { readonly ok: true; readonly value: Restored } | { readonly ok: false; readonly message: string };

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

export async function restoreDataDir(o: RestoreOptions, ports: RestorePorts): Promise<RestoreOutcome> {
  const planned = planRestore(o.target);
  if (!planned.ok) return planned;
  const plan = planned.plan;
  if (await exists(o.dataDir)) return { ok: false, message: `data-dir ${JSON.stringify(o.dataDir)} exists` };
  if (o.walDir !== undefined && (await exists(o.walDir))) return { ok: false, message: `wal-dir ${JSON.stringify(o.walDir)} exists` };
  ports.onStart?.(plan);
  const checked = await checkSnapshotHash(o.snapshotPath, o.skipHashCheck, (d, t) => ports.onProgress?.('verify', d, t));
  if (!checked.ok) return checked;

  const staging = `${resolve(o.dataDir)}.restoring`;
  await rm(staging, { recursive: true, force: true });
  let walCreated = false;
  try {
    const snapDir = join(staging, 'member', 'snap');
    await mkdir(snapDir, { recursive: true, mode: 0o700 });
    const copied = await fillBackend(o.snapshotPath, join(snapDir, 'db'), plan, ports, checked.value.dbSize);
    if (!copied.ok) {
      await rm(staging, { recursive: true, force: true });
      return copied;
    }
    const walDir = o.walDir ?? join(staging, 'member', 'wal');
    walCreated = o.walDir !== undefined;
    await writeLog(walDir, plan);
    await rename(staging, o.dataDir);
    await syncDir(dirname(resolve(o.dataDir)));
    return { ok: true, value: { plan, ...copied.value } };
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    if (walCreated && o.walDir !== undefined) await rm(o.walDir, { recursive: true, force: true });
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

async function fillBackend(
  snapshotPath: string,
  backendPath: string,
  plan: RestorePlan,
  ports: RestorePorts,
  dbSize: number,
): Promise<{ ok: true; value: { skippedBuckets: string[]; copied: number } } | { ok: false; message: string }> {
  let reader: SnapshotReader;
  try {
    reader = await ports.openSnapshot(snapshotPath);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, message: code !== undefined ? goPathError('open', snapshotPath, err) : (err as Error).message };
  }
  try {
    const value = await copyBuckets(reader, backendPath, finalOps(plan.members, plan.consistentIndex), (bytes) => ports.onProgress?.('copy', Math.min(bytes, dbSize), dbSize));
    ports.onProgress?.('copy', dbSize, dbSize);
    return { ok: true, value };
  } finally {
    await reader.close();
  }
}

async function writeLog(walDir: string, plan: RestorePlan): Promise<void> {
  const opened = await openWal(walDir, { metadata: plan.walMetadata });
  try {
    if (!opened.created) throw new Error(`wal-dir ${JSON.stringify(walDir)} exists`);
    await opened.wal.save(plan.entries, plan.hardState);
    await opened.wal.saveSnapshot(plan.snapshot);
  } finally {
    await opened.wal.close();
  }
}
