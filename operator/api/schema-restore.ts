/**
 * The schema of `spec.restoreFrom` (create a cluster from a snapshot) and of `status.restore`
 * (what the operator restored it from), written once with typebox like the rest of the API.
 *
 * `restoreFrom` names exactly one source: `path` (a snapshot file on the operator's snapshot
 * volume; local mode: a file path, relative to the manifest's directory) or `backup` (a backup
 * recorded in another cluster's `status.backups`). `sha256` (optional) is the digest the file must
 * carry (its SHA-256 trailer). The field is read once, when the cluster is created; a later change
 * is reported (condition RestoreBlocked, reason RestoreSourceChanged) and not acted on.
 */
import { Type } from 'typebox';
import { int64 } from './schema-kinds.js';

export const SHA256_PATTERN = '^[0-9a-f]{64}$';

export const BackupRefSchema = Type.Object(
  {
    cluster: Type.String({ minLength: 1, description: 'The KvstoreCluster whose status.backups records the backup.' }),
    namespace: Type.Optional(Type.String({ minLength: 1, description: 'Its namespace (default: this cluster\'s).' })),
    name: Type.Optional(Type.String({ minLength: 1, description: 'A backup file name it records (default: its latest successful backup).' })),
  },
  { description: 'A backup recorded in another cluster\'s status.backups.' },
);

export const RestoreFromSchema = Type.Object(
  {
    path: Type.Optional(Type.String({ minLength: 1, description: 'Snapshot file on the operator\'s snapshot volume (inside --snapshot-dir/<namespace>/; relative paths are taken from there). Local mode: a file path, relative to the manifest\'s directory.' })),
    backup: Type.Optional(BackupRefSchema),
    sha256: Type.Optional(Type.String({ pattern: SHA256_PATTERN, description: 'Expected SHA-256 of the snapshot (its trailer, as status.upgrade.snapshot.sha256 records it).' })),
  },
  {
    description: 'Create the cluster from a snapshot: every member is restored from it before it first starts (new cluster and member ids, revisions kept). Read at creation only.',
    'x-kubernetes-validations': [{ rule: 'has(self.path) != has(self.backup)', message: 'names exactly one of path or backup' }],
  },
);

export const RestoreStatusSchema = Type.Object({
  source: Type.String({ description: 'spec.restoreFrom as it was when the cluster was created (path:<file> or backup:<namespace>/<cluster>[/<name>]).' }),
  file: Type.String({ description: 'The snapshot file the members were restored from.' }),
  sha256: Type.String({ pattern: SHA256_PATTERN }),
  revision: int64({ minimum: 0, description: 'Revision the snapshot holds (kept by the restore).' }),
  startedAt: Type.String({ format: 'date-time', description: 'When the restored members were created.' }),
  restoredAt: Type.Optional(Type.String({ format: 'date-time', description: 'When every restored member was first ready.' })),
});
