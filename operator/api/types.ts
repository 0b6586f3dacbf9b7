/**
 * The `KvstoreCluster` resource (`kvstore.io/v1alpha1`, namespaced): spec and status as
 * TypeScript types. This file is the contract every part of the operator shares (the pure
 * reconcile, the executor, the Kubernetes and local drivers, the CRD schema). The CRD's
 * OpenAPI schema is built from operator/api/schema.ts and must describe exactly these shapes.
 */

export const GROUP = 'kvstore.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'KvstoreCluster';
export const PLURAL = 'kvstoreclusters';

/** Allowed cluster sizes (odd, so a majority survives the loss of a minority). */
export const CLUSTER_SIZES = [1, 3, 5, 7] as const;
export type ClusterSize = (typeof CLUSTER_SIZES)[number];

export interface StorageSpec {
  /** PVC size, a Kubernetes quantity (default `1Gi`). */
  readonly size: string;
  /** StorageClass name; absent = the cluster default. */
  readonly storageClassName?: string;
}

/** Server options passed to every member as flags. */
export interface ServerOptions {
  readonly autoCompactionMode?: 'periodic' | 'revision';
  readonly autoCompactionRetention?: string;
  readonly quotaBackendBytes?: number;
  readonly maxRequestBytes?: number;
  readonly enableV2?: boolean;
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
}

export interface SnapshotSpec {
  /** Kubernetes: name of the PVC the operator writes pre-upgrade snapshots to. Local mode: a
   * directory (relative to the manifest file). Default: `snapshots`. */
  readonly volume: string;
  /** How many snapshot files to keep per cluster (oldest removed first; default 3). */
  readonly keep: number;
}

export interface UpgradeSpec {
  /** Wait after each member when the v2 store exceeds v2ThresholdBytes (default 120). */
  readonly v2WaitSeconds: number;
  /** v2 store size above which the wait applies (default 50,000,000). */
  readonly v2ThresholdBytes: number;
  /** How long one member may take to come back healthy on the new version (default 300). */
  readonly memberHealthTimeoutSeconds: number;
  readonly snapshot: SnapshotSpec;
}

export interface KvstoreClusterSpec {
  readonly size: ClusterSize;
  /** Server version every member should run, `3.<minor>.<patch>` (3.2 … 3.5). */
  readonly version: string;
  /** Container image repository; the tag is the version (default `kvstore/kvstore`). */
  readonly image: string;
  readonly storage: StorageSpec;
  /** core/v1 ResourceRequirements, passed through to the member container. */
  readonly resources?: Readonly<Record<string, unknown>>;
  /** core/v1 Affinity, passed through to the member pods. */
  readonly affinity?: Readonly<Record<string, unknown>>;
  /** core/v1 Toleration list, passed through to the member pods. */
  readonly tolerations?: readonly Readonly<Record<string, unknown>>[];
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly options: ServerOptions;
  readonly upgrade: UpgradeSpec;
  /** When true the operator observes and reports but changes nothing. */
  readonly paused: boolean;
}

export const PHASES = ['Pending', 'Creating', 'Running', 'Scaling', 'Upgrading', 'Degraded', 'UpgradeBlocked', 'Paused'] as const;
export type Phase = (typeof PHASES)[number];

export const CONDITION_TYPES = ['Available', 'Progressing', 'Degraded', 'Upgrading', 'UpgradeBlocked'] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

export interface Condition {
  readonly type: ConditionType;
  readonly status: 'True' | 'False' | 'Unknown';
  /** CamelCase machine word, e.g. `SkipsMinorVersion`. */
  readonly reason: string;
  readonly message: string;
  /** RFC 3339. */
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
}

export interface MemberStatus {
  /** Pod / process name, e.g. `demo-0`. */
  readonly name: string;
  /** Member id, 16 hex digits (empty until known). */
  readonly id: string;
  /** Server version reported by the member's /version (`etcdserver`), empty when unreachable. */
  readonly version: string;
  readonly healthy: boolean;
  readonly leader: boolean;
  readonly clientURL: string;
}

export interface SnapshotRecord {
  /** Path of the snapshot file (inside the snapshot volume, or on disk in local mode). */
  readonly file: string;
  readonly sha256: string;
  readonly revision: number;
  readonly size: number;
  /** Name of the member (the leader) it was streamed from. */
  readonly member: string;
  readonly takenAt: string;
}

export const UPGRADE_STATES = ['Snapshotting', 'UpgradingMembers', 'WaitingV2', 'Finalizing', 'RollingBack', 'Completed', 'RolledBack', 'Blocked'] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];

export interface UpgradeStatus {
  readonly from: string;
  readonly to: string;
  readonly state: UpgradeState;
  /** Member being replaced now (absent between members). */
  readonly currentMember?: string;
  /** Members already running `to`, in the order they were done. */
  readonly membersDone: readonly string[];
  readonly startedAt: string;
  readonly finishedAt?: string;
  /** While waiting between members for the v2 wait: RFC 3339 time the wait ends. */
  readonly waitUntil?: string;
  readonly snapshot?: SnapshotRecord;
  /** Why the upgrade is blocked (state `Blocked`). */
  readonly reason?: string;
}

export interface KvstoreClusterStatus {
  readonly phase: Phase;
  readonly observedGeneration: number;
  /** Cluster version the members' /version report (`etcdcluster`), empty when unknown. */
  readonly clusterVersion: string;
  /** `ready/size`, e.g. `3/3` (printer column). */
  readonly readyMembers: string;
  readonly members: readonly MemberStatus[];
  readonly upgrade?: UpgradeStatus;
  /** Lowest minor version (`3.5`) the cluster may run; set when an upgrade completes. */
  readonly downgradeFloor?: string;
  readonly conditions: readonly Condition[];
}

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

export interface KvstoreCluster {
  readonly apiVersion: typeof API_VERSION;
  readonly kind: typeof KIND;
  readonly metadata: ObjectMeta;
  readonly spec: KvstoreClusterSpec;
  readonly status?: KvstoreClusterStatus;
}
