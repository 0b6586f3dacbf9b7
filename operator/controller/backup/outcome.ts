/**
 * The outcome of a TakeBackup action, kept by the engine for the next pass (`observed.backupOutcome`),
 * where the backup planner records it in `status.backups` — the same hand-over as the pre-upgrade
 * snapshot's outcome. `name` ties it to `status.backups.lastAttempt`.
 */
import type { BackupRecord, RetainedBackup } from '../../api/types.js';

export type BackupOutcome =
  | {
      readonly ok: true;
      readonly name: string;
      readonly record: BackupRecord;
      /** Every backup of the cluster at the destination after this one was written, oldest first. */
      readonly stored: readonly RetainedBackup[];
      /** Duration of the backup (stream, verification, upload). */
      readonly seconds: number;
    }
  | { readonly ok: false; readonly name: string; readonly time: string; readonly error: string; readonly seconds: number };
