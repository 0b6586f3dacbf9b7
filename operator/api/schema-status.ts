/**
 * The OpenAPI v3 schema of `KvstoreCluster.status` (the status subresource), written once with
 * typebox; types.ts derives the TypeScript types from it. The operator always writes the whole
 * status, so the fields types.ts marks required are required here too.
 */
import { Type } from 'typebox';
import { CONDITION_STATUSES, CONDITION_TYPES, PHASES, UPGRADE_STATES } from './constants.js';
import { int64, stringEnum } from './schema-kinds.js';
import { BackupStatusSchema } from './schema-backup.js';
import { RestoreStatusSchema } from './schema-restore.js';

const time = (description: string) => Type.String({ format: 'date-time', description });

export const ConditionSchema = Type.Object({
  type: stringEnum(CONDITION_TYPES),
  status: stringEnum(CONDITION_STATUSES),
  reason: Type.String({ description: 'CamelCase machine word, e.g. SkipsMinorVersion.' }),
  message: Type.String(),
  lastTransitionTime: time('RFC 3339.'),
  observedGeneration: Type.Optional(int64({ minimum: 0 })),
});

export const MemberStatusSchema = Type.Object({
  name: Type.String({ description: 'Pod / process name, e.g. demo-0.' }),
  id: Type.String({ description: 'Member id, 16 hex digits (empty until known).' }),
  version: Type.String({ description: 'Server version the member reports (etcdserver), empty when unreachable.' }),
  healthy: Type.Boolean(),
  leader: Type.Boolean(),
  clientURL: Type.String(),
  unhealthySince: Type.Optional(time('Since when this member has been not ready (kept while it stays not ready, absent once ready): the clock of its replacement after spec.upgrade.memberHealthTimeoutSeconds.')),
});

export const SnapshotRecordSchema = Type.Object({
  file: Type.String({ description: 'Snapshot file inside the snapshot volume (local mode: on disk).' }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  revision: int64({ minimum: 0 }),
  size: int64({ minimum: 0 }),
  member: Type.String({ description: 'Member (the leader) it was streamed from.' }),
  takenAt: time('When the snapshot was completed.'),
});

export const RehearsalRecordSchema = Type.Object({
  id: Type.String({ description: 'Identifies the scratch member of this attempt (a new id per attempt).' }),
  startedAt: time('When this attempt started.'),
  outcome: Type.Optional(stringEnum(['Passed', 'Failed'] as const, { description: 'Absent while the rehearsal runs; a lost outcome is never a pass.' })),
  revision: Type.Optional(int64({ minimum: 0, description: 'Revision the scratch member served.' })),
  keys: Type.Optional(int64({ minimum: 0, description: 'Keys the scratch member served (Range count_only, linearizable).' })),
  durationSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
  message: Type.Optional(Type.String({ description: 'Why it failed.' })),
});

export const UpgradeStatusSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  state: stringEnum(UPGRADE_STATES),
  currentMember: Type.Optional(Type.String({ description: 'Member being replaced now (absent between members).' })),
  membersDone: Type.Array(Type.String(), { description: 'Members already running `to`, in the order they were done.' }),
  startedAt: time('When the upgrade started.'),
  finishedAt: Type.Optional(time('When the upgrade completed, rolled back or was blocked.')),
  waitUntil: Type.Optional(time('End of the v2 wait between members.')),
  snapshot: Type.Optional(SnapshotRecordSchema),
  rehearsal: Type.Optional(RehearsalRecordSchema),
  reason: Type.Optional(Type.String({ description: 'Why the upgrade is blocked (state Blocked).' })),
});

export const KvstoreClusterStatusSchema = Type.Object(
  {
    phase: stringEnum(PHASES),
    observedGeneration: int64({ minimum: 0 }),
    clusterVersion: Type.String({ description: 'Cluster version the members report (etcdcluster), empty when unknown.' }),
    readyMembers: Type.String({ description: 'ready/size, e.g. 3/3.' }),
    members: Type.Array(MemberStatusSchema, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }),
    upgrade: Type.Optional(UpgradeStatusSchema),
    restore: Type.Optional(RestoreStatusSchema),
    downgradeFloor: Type.Optional(Type.String({ pattern: '^3\\.[2-9]$', description: 'Lowest minor version the cluster may run; set when an upgrade completes.' })),
    backups: Type.Optional(BackupStatusSchema),
    conditions: Type.Array(ConditionSchema, { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
  },
  { description: 'Observed state of a kvstore cluster, written by the operator.' },
);
