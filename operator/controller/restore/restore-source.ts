/**
 * The engine's port for restores: `RestoreInspector.check(cluster)` resolves `spec.restoreFrom` to
 * a file and checks it (inspect-snapshot.ts). `FileRestoreInspector` is the implementation both
 * platforms use; they differ only in where a `path` may point (`resolvePath`), how another
 * cluster's `status.backups` is read (`backups`) and how a backup record's `uri` becomes a local
 * file (`locate`: a path inside the allowed directories, or an S3 object downloaded into the
 * operator's staging area). A check of an unchanged file (same path, size
 * and modification time) is remembered, so the many passes of a refused or waiting cluster do
 * not hash the same file again.
 *
 * `needsRestoreCheck` says when the engine asks: spec.restoreFrom set, no owned objects, no
 * restore completed — the only passes the restore rule (plan-restore.ts) decides on it.
 */
import { stat } from 'node:fs/promises';
import type { BackupRef, BackupSpec, KvstoreCluster } from '../../api/types.js';
import type { PortResult } from '../ports.js';
import { pickBackup, type BackupRecordView, type BackupsView } from './backups.js';
import { inspectSnapshot } from './inspect-snapshot.js';
import type { RestoreCheck } from './restore-check.js';

export interface RestoreInspector {
  check(cluster: KvstoreCluster): Promise<RestoreCheck>;
}

/** The cluster whose backup is restored: who it is and its `spec.backup` (where its backups are). */
export interface BackupSource {
  readonly namespace: string;
  readonly name: string;
  readonly backup?: BackupSpec;
}

/** Reads the `status.backups` of cluster `name` in `namespace` ('' locally); ok(undefined) when that cluster does not exist. */
export type BackupLookup = (namespace: string, name: string) => Promise<PortResult<{ readonly source: BackupSource; readonly backups?: BackupsView } | undefined>>;

/** The local file backup `record` of `source` is restored from, for cluster `restoring` (a failure refuses it: SnapshotMissing). */
export type BackupLocator = (restoring: KvstoreCluster, source: BackupSource, record: BackupRecordView) => Promise<PortResult<string>>;

export interface FileRestoreInspectorDeps {
  /** The absolute file a `path` (of spec.restoreFrom, or of a backup record of cluster `owner`) names; a failure refuses it (SnapshotMissing). */
  readonly resolvePath: (cluster: KvstoreCluster, path: string) => PortResult<string>;
  /** Absent: the `backup` form is refused (BackupNotFound, with the reason). */
  readonly backups?: BackupLookup;
  /** Absent: a record's uri is taken as a `path` (resolvePath). */
  readonly locate?: BackupLocator;
  /** Why `backups` is absent (e.g. local mode). */
  readonly noBackupsReason?: string;
}

export function needsRestoreCheck(cluster: KvstoreCluster, objectsExist: boolean): boolean {
  return cluster.spec.restoreFrom !== undefined && !objectsExist && cluster.status?.restore?.restoredAt === undefined;
}

export class FileRestoreInspector implements RestoreInspector {
  private readonly seen = new Map<string, { readonly key: string; readonly check: RestoreCheck }>();

  constructor(private readonly deps: FileRestoreInspectorDeps) {}

  async check(cluster: KvstoreCluster): Promise<RestoreCheck> {
    const from = cluster.spec.restoreFrom;
    if (from === undefined) return { ok: false, reason: 'SnapshotMissing', message: 'spec.restoreFrom is not set' };
    if (from.backup !== undefined) return this.checkBackup(cluster, from.backup);
    return this.checkPath(cluster, from.path ?? '');
  }

  private async checkBackup(cluster: KvstoreCluster, ref: BackupRef): Promise<RestoreCheck> {
    if (this.deps.backups === undefined) return { ok: false, reason: 'BackupNotFound', message: this.deps.noBackupsReason ?? 'backups of other clusters cannot be read here; use spec.restoreFrom.path' };
    const ns = ref.namespace ?? cluster.metadata.namespace ?? '';
    const what = `cluster ${ns === '' ? '' : `${ns}/`}${ref.cluster}`;
    const other = await this.deps.backups(ns, ref.cluster);
    if (!other.ok) return { ok: false, reason: 'BackupNotFound', message: `${what}: ${other.error}` };
    if (other.value === undefined) return { ok: false, reason: 'BackupNotFound', message: `${what} does not exist` };
    const picked = pickBackup(other.value.backups, ref.name, what);
    if (!picked.ok) return { ok: false, reason: 'BackupNotFound', message: picked.message };
    const r = picked.record;
    let checked: RestoreCheck;
    if (this.deps.locate === undefined) checked = await this.checkPath(cluster, r.uri);
    else {
      const file = await this.deps.locate(cluster, other.value.source, r);
      checked = file.ok ? await this.checkFile(file.value) : { ok: false, reason: 'SnapshotMissing', message: `backup ${r.name} of ${what}: ${file.error}` };
    }
    if (!checked.ok) return checked;
    const recorded = { ...(r.sha256 === undefined ? {} : { sha256: r.sha256 }), ...(r.revision === undefined ? {} : { revision: r.revision }) };
    return { ...checked, recorded };
  }

  private async checkPath(cluster: KvstoreCluster, path: string): Promise<RestoreCheck> {
    const resolved = this.deps.resolvePath(cluster, path);
    if (!resolved.ok) return { ok: false, reason: 'SnapshotMissing', message: resolved.error };
    return this.checkFile(resolved.value);
  }

  private async checkFile(file: string): Promise<RestoreCheck> {
    let key: string;
    try {
      const st = await stat(file);
      key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch {
      return inspectSnapshot(file); // reports what is wrong with it
    }
    const known = this.seen.get(file);
    if (known !== undefined && known.key === key) return known.check;
    const check = await inspectSnapshot(file);
    this.seen.set(file, { key, check });
    return check;
  }
}
