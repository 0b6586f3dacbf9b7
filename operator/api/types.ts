/**
 * The `KvstoreCluster` resource (`kvstore.io/v1alpha1`, namespaced): spec and status as
 * TypeScript types. This file is the contract every part of the operator shares (the pure
 * reconcile, the executor, the Kubernetes and local drivers). The spec and status types are
 * derived from the schema (schema-spec.ts, schema-status.ts: `Static`, made deeply readonly),
 * so the CRD's OpenAPI schema and these types cannot drift apart; the shapes are pinned by
 * test/operator/api/types-contract.test.ts (a compile-time check).
 *
 * The spec types are the *defaulted* shapes (withDefaults() output): fields with a default are
 * required here; quantities and retention are strings (withDefaults() turns YAML integers into text).
 */
import type { Static } from 'typebox';
import type { API_VERSION, CLUSTER_SIZES, CONDITION_TYPES, KIND, PHASES, UPGRADE_STATES } from './constants.js';
import type {
  ConditionSchema,
  KvstoreClusterSpecSchema,
  KvstoreClusterStatusSchema,
  MemberStatusSchema,
  ServerOptionsSchema,
  SnapshotRecordSchema,
  RehearsalRecordSchema,
  AuthSpecSchema,
  TlsSpecSchema,
  SnapshotSpecSchema,
  StorageSpecSchema,
  UpgradeSpecSchema,
  UpgradeStatusSchema,
  BackupSpecSchema,
  BackupDestinationSchema,
  BackupRecordSchema,
  BackupStatusSchema,
  RetainedBackupSchema,
  S3DestinationSchema,
  RestoreFromSchema,
  RestoreStatusSchema,
  BackupRefSchema,
} from './schema.js';

export {
  API_VERSION,
  CLUSTER_SIZES,
  CONDITION_TYPES,
  CRD_NAME,
  GROUP,
  KIND,
  PHASES,
  PLURAL,
  SHORT_NAMES,
  SINGULAR,
  SNAPSHOTS_FINALIZER,
  UPGRADE_STATES,
  VERSION,
} from './constants.js';

/** `T` with every property and array element readonly, all the way down. */
export type DeepReadonly<T> = T extends (infer U)[] | readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

export type ClusterSize = (typeof CLUSTER_SIZES)[number];
export type Phase = (typeof PHASES)[number];
export type ConditionType = (typeof CONDITION_TYPES)[number];
export type UpgradeState = (typeof UPGRADE_STATES)[number];

export type StorageSpec = DeepReadonly<Static<typeof StorageSpecSchema>>;
/** Server options passed to every member as flags. */
export type ServerOptions = DeepReadonly<Static<typeof ServerOptionsSchema>>;
export type SnapshotSpec = DeepReadonly<Static<typeof SnapshotSpecSchema>>;
export type UpgradeSpec = DeepReadonly<Static<typeof UpgradeSpecSchema>>;
export type TlsSpec = DeepReadonly<Static<typeof TlsSpecSchema>>;
export type AuthSpec = DeepReadonly<Static<typeof AuthSpecSchema>>;
export type BackupSpec = DeepReadonly<Static<typeof BackupSpecSchema>>;
export type BackupDestination = DeepReadonly<Static<typeof BackupDestinationSchema>>;
export type S3Destination = DeepReadonly<Static<typeof S3DestinationSchema>>;
/** spec.restoreFrom: create the cluster from a snapshot file or another cluster's backup. */
export type RestoreFrom = DeepReadonly<Static<typeof RestoreFromSchema>>;
export type BackupRef = DeepReadonly<Static<typeof BackupRefSchema>>;
export type RestoreStatus = DeepReadonly<Static<typeof RestoreStatusSchema>>;
export type KvstoreClusterSpec = DeepReadonly<Static<typeof KvstoreClusterSpecSchema>>;

export type Condition = DeepReadonly<Static<typeof ConditionSchema>>;
export type MemberStatus = DeepReadonly<Static<typeof MemberStatusSchema>>;
export type SnapshotRecord = DeepReadonly<Static<typeof SnapshotRecordSchema>>;
export type RehearsalRecord = DeepReadonly<Static<typeof RehearsalRecordSchema>>;
export type UpgradeStatus = DeepReadonly<Static<typeof UpgradeStatusSchema>>;
export type BackupRecord = DeepReadonly<Static<typeof BackupRecordSchema>>;
export type RetainedBackup = DeepReadonly<Static<typeof RetainedBackupSchema>>;
export type BackupStatus = DeepReadonly<Static<typeof BackupStatusSchema>>;
export type KvstoreClusterStatus = DeepReadonly<Static<typeof KvstoreClusterStatusSchema>>;

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly generation?: number;
  readonly resourceVersion?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly finalizers?: readonly string[];
  readonly deletionTimestamp?: string;
  readonly creationTimestamp?: string;
}

/** A cluster with its spec defaulted (withDefaults() / parseCluster() output). */
export interface KvstoreCluster {
  readonly apiVersion: typeof API_VERSION;
  readonly kind: typeof KIND;
  readonly metadata: ObjectMeta;
  readonly spec: KvstoreClusterSpec;
  readonly status?: KvstoreClusterStatus;
}

/** `T` with every property optional, all the way down (arrays and maps kept as they are). */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A spec as a user writes it: everything with a default may be left out. */
export type KvstoreClusterSpecInput = DeepPartial<KvstoreClusterSpec> & { readonly version: string };

/** A cluster as read from a manifest or the API server, before withDefaults(). */
export interface KvstoreClusterInput {
  readonly apiVersion: typeof API_VERSION;
  readonly kind: typeof KIND;
  readonly metadata: ObjectMeta;
  readonly spec: KvstoreClusterSpecInput;
  readonly status?: KvstoreClusterStatus;
}
