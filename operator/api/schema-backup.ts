/**
 * Scheduled backups: `spec.backup` (when, where to, how many to keep) and `status.backups` (what
 * the operator did about it), written once with typebox like the rest of the schema.
 *
 * A backup is a snapshot streamed from the leader (the pre-upgrade snapshot's path: `.part`,
 * SHA-256 trailer and revision checked, then renamed), named `<cluster>-<yyyymmddThhmmssZ>.db`,
 * written into a directory (`destination.path`) or an S3 bucket (`destination.s3`).
 */
import { Type } from 'typebox';
import { int64 } from './schema-kinds.js';

const time = (description: string) => Type.String({ format: 'date-time', description });

/** Keys read from the Secret `destination.s3.credentialsSecret` names. */
export const S3_ACCESS_KEY_ID_KEY = 'AWS_ACCESS_KEY_ID';
export const S3_SECRET_ACCESS_KEY_KEY = 'AWS_SECRET_ACCESS_KEY';
export const S3_SESSION_TOKEN_KEY = 'AWS_SESSION_TOKEN';

export const DEFAULT_BACKUP_MAX_COUNT = 7;

export const S3DestinationSchema = Type.Object(
  {
    bucket: Type.String({ minLength: 3, maxLength: 63, description: 'Bucket name.' }),
    prefix: Type.Optional(Type.String({ description: 'Key prefix; objects are `<prefix>/<cluster>-<time>.db`.' })),
    endpoint: Type.Optional(Type.String({ minLength: 1, description: 'S3-compatible endpoint URL (MinIO, Ceph…); absent = AWS. With an endpoint, path-style addressing is used.' })),
    region: Type.String({ minLength: 1, default: 'us-east-1', description: 'Region of the bucket.' }),
    credentialsSecret: Type.Optional(
      Type.String({
        minLength: 1,
        description: `Secret with keys ${S3_ACCESS_KEY_ID_KEY}, ${S3_SECRET_ACCESS_KEY_KEY} (and optionally ${S3_SESSION_TOKEN_KEY}); absent = the operator's own AWS credentials (environment, web identity). Local mode: <name>.yaml beside the manifest.`,
      }),
    ),
  },
  { description: 'An S3 bucket (or an S3-compatible object store).' },
);

export const BackupDestinationSchema = Type.Object(
  {
    path: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "Directory. Kubernetes: a relative path inside the operator's backup volume (--backup-dir/<namespace>/<path>; absent: --backup-dir/<namespace>). Local mode: absolute, or relative to <cluster>.kvstore/ (absent: <cluster>.kvstore/backups).",
      }),
    ),
    s3: Type.Optional(S3DestinationSchema),
  },
  { default: {}, description: 'Where backups go: a directory (path, the default) or an object store (s3), not both.' },
);

export const BackupRetentionSchema = Type.Object(
  {
    maxCount: Type.Integer({ minimum: 1, default: DEFAULT_BACKUP_MAX_COUNT, description: 'Backups kept, the newest; older ones are deleted after a successful backup.' }),
    maxAgeHours: Type.Optional(Type.Integer({ minimum: 1, description: 'Backups older than this are deleted after a successful backup (the one just taken is always kept).' })),
  },
  { default: {}, description: 'Which backups are kept. Applied after each successful backup.' },
);

export const BackupSpecSchema = Type.Object(
  {
    schedule: Type.String({
      minLength: 1,
      description:
        'Cron schedule in UTC: 5 fields (minute hour day-of-month month day-of-week), 6 fields with a leading second, or @hourly/@daily/@weekly/@monthly/@yearly. A missed time (operator down) is made up once.',
    }),
    destination: BackupDestinationSchema,
    retention: BackupRetentionSchema,
    suspend: Type.Boolean({ default: false, description: 'When true no new backup is started (the status is kept).' }),
  },
  { description: 'Scheduled backups: a snapshot of the leader, verified (SHA-256, revision), written to a directory or an S3 bucket.' },
);

export const BackupRecordSchema = Type.Object({
  name: Type.String({ description: 'File / object name, <cluster>-<yyyymmddThhmmssZ>.db.' }),
  uri: Type.String({ description: 'Where it is: a file path (inside the backup volume on Kubernetes) or s3://bucket/key.' }),
  time: time('When the backup was completed.'),
  revision: int64({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  size: int64({ minimum: 0 }),
  member: Type.String({ description: 'Member (the leader) it was streamed from.' }),
});

export const BackupFailureSchema = Type.Object({
  name: Type.Optional(Type.String({ description: 'The backup that failed (absent when none was started).' })),
  time: time('When the failure was seen.'),
  reason: Type.String(),
});

export const BackupAttemptSchema = Type.Object({
  name: Type.String(),
  time: time('When the backup was started.'),
});

export const RetainedBackupSchema = Type.Object({
  name: Type.String(),
  uri: Type.String(),
  time: time('When it was taken (from its name).'),
  size: int64({ minimum: 0 }),
});

export const BackupStatusSchema = Type.Object(
  {
    schedule: Type.Optional(Type.String({ description: 'The schedule nextRun was computed from.' })),
    nextRun: Type.Optional(time('When the next backup is due.')),
    lastAttempt: Type.Optional(BackupAttemptSchema),
    lastSuccess: Type.Optional(BackupRecordSchema),
    lastFailure: Type.Optional(BackupFailureSchema),
    retained: Type.Array(RetainedBackupSchema, { description: 'Backups kept at the destination after the last successful backup, oldest first.' }),
  },
  { description: 'Scheduled backups (spec.backup).' },
);
