/**
 * Where backups go, as the executor sees it: a `BackupStore` per cluster, chosen from
 * `spec.backup.destination` by a `BackupStores` (a directory: runtime/backup-store/fs-store.ts;
 * an S3 bucket: runtime/backup-store/s3-store.ts). Failures are values (`PortResult`).
 *
 * The write path: the leader's snapshot is streamed into `localFile(name)` by the member admin
 * (`.part`, SHA-256 trailer and revision verified, renamed); `publish` then makes it the backup
 * (a directory: already in place; S3: uploaded, the local copy removed). A backup is listed only
 * once published: `.part` files and staged copies are never listed.
 */
import type { KvstoreCluster, RetainedBackup } from '../../api/types.js';
import type { PortResult, SnapshotFile } from '../ports.js';

export interface BackupStore {
  /** The destination for people and logs (`/var/lib/…/backups/ns`, `s3://bucket/prefix/`). */
  readonly where: string;
  /** The local file the snapshot of backup `name` is streamed into (its directory created). */
  localFile(name: string): Promise<PortResult<string>>;
  /** Makes the verified snapshot the backup `name`; its URI (a path, or `s3://bucket/key`). */
  publish(name: string, file: SnapshotFile): Promise<PortResult<string>>;
  /** Removes whatever `localFile(name)` left behind when the backup failed (never throws). */
  discard(name: string): Promise<void>;
  /** The cluster's backups at the destination, oldest first. */
  list(): Promise<PortResult<readonly RetainedBackup[]>>;
  /** Deletes the named backups (a name already gone is fine). */
  remove(names: readonly string[]): Promise<PortResult<void>>;
}

/** The store of a cluster's `spec.backup.destination` (credentials read as needed). */
export interface BackupStores {
  storeFor(cluster: KvstoreCluster): Promise<PortResult<BackupStore>>;
}
