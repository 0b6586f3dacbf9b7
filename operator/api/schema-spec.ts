/**
 * The OpenAPI v3 schema of `KvstoreCluster.spec`, written once with typebox: types.ts derives
 * the TypeScript types from it (`Static`), crd.ts publishes it in the CRD, defaults.ts and
 * validate.ts apply its defaults and checks. Fields with a `default` are required in the
 * static (defaulted) type and optional in the CRD (crd.ts drops them from `required`).
 */
import { Type } from 'typebox';
import { CLUSTER_SIZES } from './constants.js';
import { intOrString, integerEnum, int64, passThroughObject, stringEnum, stringMap } from './schema-kinds.js';
import { AuthSpecSchema, TlsSpecSchema } from './schema-security.js';
import { BackupSpecSchema } from './schema-backup.js';
import { RestoreFromSchema } from './schema-restore.js';

/** `3.<minor>.<patch>` for the lines kvstore serves (3.2 … 3.5). */
export const VERSION_PATTERN = '^3\\.[2-5]\\.\\d+$';
/** A non-negative Kubernetes quantity (`1Gi`, `500M`, `1073741824`). */
export const QUANTITY_PATTERN = '^(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
/** --auto-compaction-retention: hours as an integer, or a Go duration (`30m`, `1h30m`). */
export const RETENTION_PATTERN = '^([0-9]+|([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+)$';

export const AUTO_COMPACTION_MODES = ['periodic', 'revision'] as const;
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

export const DEFAULT_IMAGE = 'kvstore/kvstore';
export const DEFAULT_STORAGE_SIZE = '1Gi';
/** spec.storage cannot change: the StatefulSet's claim templates are immutable. */
export const STORAGE_IMMUTABLE = 'is immutable: the member volume claims were created from it';

export const StorageSpecSchema = Type.Object(
  {
    size: intOrString(QUANTITY_PATTERN, { default: DEFAULT_STORAGE_SIZE, description: 'PVC size per member, a Kubernetes quantity.' }),
    storageClassName: Type.Optional(Type.String({ minLength: 1, description: 'StorageClass of the member PVCs; absent = the cluster default.' })),
  },
  {
    default: {},
    description: 'Persistent storage of each member (one PVC per member, mounted as its data dir). Fixed at creation.',
    'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: STORAGE_IMMUTABLE }],
  },
);

export const ServerOptionsSchema = Type.Object(
  {
    autoCompactionMode: Type.Optional(stringEnum(AUTO_COMPACTION_MODES, { description: '--auto-compaction-mode.' })),
    autoCompactionRetention: Type.Optional(intOrString(RETENTION_PATTERN, { description: '--auto-compaction-retention: hours, a duration (periodic) or a revision count (revision).' })),
    quotaBackendBytes: Type.Optional(int64({ minimum: 0, description: '--quota-backend-bytes (0 = the server default).' })),
    maxRequestBytes: Type.Optional(int64({ minimum: 1, description: '--max-request-bytes.' })),
    enableV2: Type.Optional(Type.Boolean({ description: '--enable-v2 (3.3 and later; 3.2 always serves v2).' })),
    logLevel: Type.Optional(stringEnum(LOG_LEVELS, { description: '--log-level (3.4 and later; before, debug maps to --debug).' })),
  },
  { default: {}, description: 'Server options passed to every member as flags.' },
);

export const SnapshotSpecSchema = Type.Object(
  {
    volume: Type.String({ minLength: 1, default: 'snapshots', description: 'PVC receiving pre-upgrade snapshots (local mode: a directory beside the manifest).' }),
    keep: Type.Integer({ minimum: 1, default: 3, description: 'Snapshot files kept per cluster, oldest removed first.' }),
  },
  { default: {}, description: 'Where the leader snapshot taken before an upgrade goes.' },
);

export const UpgradeSpecSchema = Type.Object(
  {
    v2WaitSeconds: Type.Integer({ minimum: 0, default: 120, description: 'Wait after each member when the v2 store exceeds v2ThresholdBytes.' }),
    v2ThresholdBytes: int64({ minimum: 0, default: 50_000_000, description: 'v2 store size above which the wait applies.' }),
    memberHealthTimeoutSeconds: Type.Integer({ minimum: 1, default: 300, description: 'How long one member may take to come back healthy on the new version.' }),
    snapshot: SnapshotSpecSchema,
    rehearsal: Type.Boolean({ default: true, description: 'Restore the pre-upgrade snapshot into a scratch member at the target version before any member is touched; a failed rehearsal blocks the upgrade.' }),
    rehearsalTimeoutSeconds: Type.Integer({ minimum: 1, default: 300, description: 'How long the rehearsal may take to serve the snapshot at the target version.' }),
  },
  { default: {}, description: 'How rolling upgrades are paced and protected.' },
);

export const KvstoreClusterSpecSchema = Type.Object(
  {
    size: integerEnum(CLUSTER_SIZES, { default: 3, description: 'Number of members: 1, 3, 5 or 7.' }),
    version: Type.String({ pattern: VERSION_PATTERN, description: 'Server version every member should run, 3.<minor>.<patch> (3.2 … 3.5).' }),
    image: Type.String({ minLength: 1, default: DEFAULT_IMAGE, description: 'Container image repository, without tag or digest; the tag is the version.' }),
    storage: StorageSpecSchema,
    resources: Type.Optional(passThroughObject({ description: 'core/v1 ResourceRequirements of the member container.' })),
    affinity: Type.Optional(passThroughObject({ description: 'core/v1 Affinity of the member pods.' })),
    tolerations: Type.Optional(Type.Array(passThroughObject(), { description: 'core/v1 Tolerations of the member pods.' })),
    nodeSelector: Type.Optional(stringMap({ description: 'Node labels the member pods must match.' })),
    options: ServerOptionsSchema,
    upgrade: UpgradeSpecSchema,
    tls: Type.Optional(TlsSpecSchema),
    auth: Type.Optional(AuthSpecSchema),
    backup: Type.Optional(BackupSpecSchema),
    restoreFrom: Type.Optional(RestoreFromSchema),
    paused: Type.Boolean({ default: false, description: 'When true the operator observes and reports but changes nothing.' }),
  },
  { description: 'Desired state of a kvstore cluster.' },
);
