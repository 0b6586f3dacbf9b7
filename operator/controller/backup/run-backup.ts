/**
 * The I/O of the backup actions, called by execute.ts. `takeBackup`: the cluster's store
 * (destination), the leader's snapshot streamed into the store's local file by the member admin
 * (`.part`, SHA-256 trailer and revision verified, renamed: admin/snapshot-to-file.ts), published
 * (S3: uploaded), then the destination listed for retention. Every failure is an outcome value
 * (never a throw, never a failed action): a backup does not hold up the cluster. `pruneBackups`
 * deletes the names retention chose.
 */
import type { KvstoreCluster } from '../../api/types.js';
import type { Action } from '../model.js';
import { portFail, type MemberAdmin, type PortResult } from '../ports.js';
import type { BackupOutcome } from './outcome.js';
import type { BackupStores } from './store-port.js';

export interface BackupDeps {
  readonly admin: MemberAdmin;
  /** Undefined: the operator runs without a backup store (a TakeBackup then fails as an outcome). */
  readonly backups: BackupStores | undefined;
  /** RFC 3339 now. */
  readonly now: () => string;
  /** Milliseconds (durations). */
  readonly nowMs: () => number;
}

export async function takeBackup(cluster: KvstoreCluster, a: Extract<Action, { kind: 'TakeBackup' }>, deps: BackupDeps): Promise<BackupOutcome> {
  const started = deps.nowMs();
  const failed = (error: string): BackupOutcome => ({ ok: false, name: a.name, time: deps.now(), error, seconds: (deps.nowMs() - started) / 1000 });
  if (deps.backups === undefined) return failed('this operator has no backup store configured');
  const store = await deps.backups.storeFor(cluster);
  if (!store.ok) return failed(store.error);
  const s = store.value;
  const local = await s.localFile(a.name);
  if (!local.ok) return failed(`${s.where}: ${local.error}`);
  const snap = await deps.admin.snapshot(a.clientURL, local.value);
  if (!snap.ok) {
    await s.discard(a.name);
    return failed(snap.error);
  }
  const uri = await s.publish(a.name, snap.value);
  if (!uri.ok) {
    await s.discard(a.name);
    return failed(`${s.where}: ${uri.error}`);
  }
  const time = deps.now();
  const listed = await s.list();
  const record = { name: a.name, uri: uri.value, time, revision: snap.value.revision, sha256: snap.value.sha256, size: snap.value.size, member: a.member };
  // A listing failure loses only the retention of this pass: the backup itself is done.
  const stored = listed.ok ? listed.value : [{ name: a.name, uri: uri.value, time, size: snap.value.size }];
  return { ok: true, name: a.name, record, stored, seconds: (deps.nowMs() - started) / 1000 };
}

export async function pruneBackups(cluster: KvstoreCluster, a: Extract<Action, { kind: 'PruneBackups' }>, backups: BackupStores | undefined): Promise<PortResult<void>> {
  if (backups === undefined) return portFail('this operator has no backup store configured');
  const store = await backups.storeFor(cluster);
  return store.ok ? store.value.remove(a.names) : store;
}
