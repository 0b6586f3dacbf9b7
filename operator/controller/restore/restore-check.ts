/**
 * What the operator found out about the snapshot `spec.restoreFrom` names, before any member is
 * created (the I/O side, inspect-snapshot.ts, gathers it; the pure planner, plan-restore.ts,
 * decides on it). A failure is a value with the reason the RestoreBlocked condition and the
 * RestoreFailed event carry.
 */

/** Why a restore is refused. */
export const RESTORE_REFUSALS = [
  /** The file (or the backup record) does not exist. */
  'SnapshotMissing',
  /** The SHA-256 trailer is absent or does not match, spec.restoreFrom.sha256 differs, or the file is no database. */
  'SnapshotCorrupt',
  /** The snapshot records a cluster / storage version above spec.version's minor line. */
  'SnapshotTooNew',
  /** spec.restoreFrom.backup names a cluster or a backup that cannot be found. */
  'BackupNotFound',
  /** This platform cannot restore members (yet). */
  'RestoreUnsupported',
] as const;
export type RestoreRefusal = (typeof RESTORE_REFUSALS)[number];

/** A snapshot file that passed the file checks (trailer matches, opens as a database). */
export interface SnapshotFacts {
  /** Absolute path the members are restored from. */
  readonly file: string;
  /** Hex SHA-256 of the database image (= the file's trailer). */
  readonly sha256: string;
  readonly size: number;
  /** The newest key revision the image holds (as `snapshot status` reports it). */
  readonly revision: number;
  /** `cluster/clusterVersion` of the image (`3.4.0`), absent when never decided. */
  readonly clusterVersion?: string;
  /**
   * Lowest minor line that wrote this storage, when the image tells more than its cluster version:
   * `3.5` when `meta` holds 3.5's `term` / `confState`.
   */
  readonly storageVersion?: string;
}

export type RestoreCheck =
  /** `recorded`: what a backup record says of the file (checked against the facts by the planner). */
  | { readonly ok: true; readonly facts: SnapshotFacts; readonly recorded?: { readonly sha256?: string; readonly revision?: number } }
  | { readonly ok: false; readonly reason: RestoreRefusal; readonly message: string };

/** What the platform restores every new member's data dir from (EnsureObjects.restore). */
export interface RestoreRequest {
  readonly file: string;
  readonly sha256: string;
}
