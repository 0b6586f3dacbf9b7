/**
 * The ports the operator engine (observe → reconcile → execute) talks through. Two worlds
 * implement them: Kubernetes (StatefulSet with OnDelete updates, pods, the status subresource,
 * core/v1 Events) and local mode (one `kvstore` process per member, the manifest file).
 *
 * Contract shared by every port:
 * - expected failures are values (`PortResult`), never throws; a throw is a bug;
 * - every call that can hang takes an AbortSignal or has its own bound (the engine additionally
 *   bounds observe calls so a dead member never stalls a pass);
 * - a port holds no cluster-wide state the engine depends on: everything the engine needs to
 *   decide is re-read on each pass (level-triggered).
 */
import type { KvstoreCluster, KvstoreClusterStatus } from '../api/types.js';
import type { ClusterMember, Observed, Plan, PlannedEvent } from './model.js';
import type { RestoreRequest } from './restore/restore-check.js';

export type PortResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export const portOk = <T>(value: T): PortResult<T> => ({ ok: true, value });
export const portFail = <T = never>(error: string): PortResult<T> => ({ ok: false, error });

/** One member slot (ordinal) as the platform sees it (pod / process), without asking the member. */
export interface PlatformSlot {
  /** `<cluster>-<ordinal>`. */
  readonly name: string;
  readonly ordinal: number;
  /** A pod / process exists for the slot. */
  readonly exists: boolean;
  /** Pod Running / process alive. */
  readonly running: boolean;
  /** Version the slot runs with (pod image tag / process env), '' when none. */
  readonly runVersion: string;
  /** `http://host:port` the operator reaches the member's client listener at. */
  readonly clientURL: string;
  readonly peerURL: string;
  /**
   * The slot's data is gone although the member had run on it (local: the data dir or its WAL
   * vanished); the platform keeps such a member stopped until `resetMember`. Absent = not lost.
   */
  readonly dataLost?: boolean;
}

/** What the platform holds for one cluster. */
export interface PlatformView {
  /** The owned objects (StatefulSet + services / the local process table) exist. */
  readonly objectsExist: boolean;
  /** Version new or recreated members get ('' when no objects). */
  readonly templateVersion: string;
  /** Replicas the platform is asked to run (StatefulSet spec.replicas / local desired). */
  readonly replicas: number;
  /**
   * Slots 0 … max(replicas, existing, spec.size) - 1, by ordinal; a slot not yet started still
   * carries the peer URL it will have (reconcile adds it as a learner before starting it).
   */
  readonly slots: readonly PlatformSlot[];
}

/**
 * Where members run. Kubernetes: a StatefulSet with `updateStrategy: OnDelete` (a deleted pod
 * comes back with the CURRENT template, the same name, PVC, URLs and initial-cluster flags).
 * Local: `kvstore` processes supervised by the operator process.
 */
export interface MemberPlatform {
  observe(cluster: KvstoreCluster, signal: AbortSignal): Promise<PortResult<PlatformView>>;
  /**
   * Create or update the owned objects for `replicas` members; new members at `version`. With
   * `restore` (creation only): each founding member whose data dir is empty is restored from that
   * snapshot before it starts (local: by the operator; Kubernetes: by the pod's init container).
   */
  ensureObjects(cluster: KvstoreCluster, version: string, replicas: number, restore?: RestoreRequest): Promise<PortResult<void>>;
  /** Version recreated members get from now on (StatefulSet template image + env). */
  setTemplateVersion(cluster: KvstoreCluster, version: string): Promise<PortResult<void>>;
  /**
   * Stop one member so the platform brings it back at the template version (delete the pod /
   * SIGTERM the process and start it again with the same name, data dir, URLs, cluster flags).
   * Resolves once the stop was issued (Kubernetes) or done and the new run spawned (local);
   * readiness is observed on later passes.
   */
  restartMember(cluster: KvstoreCluster, name: string): Promise<PortResult<void>>;
  /**
   * Replace a failed member's slot: delete its data (PVC / data dir) and its pod / process, so it
   * comes back empty and joins the running cluster (`--initial-cluster-state existing`) as the
   * learner an earlier AddLearner registered.
   */
  resetMember(cluster: KvstoreCluster, name: string): Promise<PortResult<void>>;
}

export interface MemberVersion {
  /** `etcdserver`. */
  readonly server: string;
  /** `etcdcluster`. */
  readonly cluster: string;
}

export interface MemberMetrics {
  /** `kvstore_server_is_leader == 1`. */
  readonly isLeader: boolean;
  /** `kvstore_v2_store_size_bytes`; undefined when the member does not expose it. */
  readonly v2StoreBytes?: number;
}

export interface MemberStatusInfo {
  /** 16 hex digits. */
  readonly memberId: string;
  /** 16 hex digits, '0000000000000000' when there is no leader. */
  readonly leaderId: string;
  /** Header revision. */
  readonly revision: number;
  readonly raftIndex: number;
  readonly isLearner: boolean;
  /** Server version Maintenance.Status reports. */
  readonly version: string;
}

/** A snapshot file written, verified and renamed into place. */
export interface SnapshotFile {
  readonly file: string;
  readonly sha256: string;
  /** Revision of the member when the stream was opened (Maintenance.Status header). */
  readonly revision: number;
  readonly size: number;
}

/**
 * How the operator identifies itself to the members of one cluster: the TLS client certificate
 * it presents (with the CA its members' certificates are checked against) and the root user it
 * authenticates as. Both absent for a cluster without spec.tls / spec.auth.
 */
export interface MemberAccess {
  readonly tls?: { readonly ca: Buffer; readonly cert: Buffer; readonly key: Buffer };
  readonly credentials?: { readonly username: string; readonly password: string };
}

/** Reads a cluster's MemberAccess (Kubernetes: its Secrets; local mode: generated files). */
export type AccessLoader = (cluster: KvstoreCluster) => Promise<PortResult<MemberAccess>>;

/**
 * The member admin of each cluster, made with the cluster's MemberAccess and kept while the
 * access stays the same (a rotated Secret gets a new one, the old one is closed).
 */
export interface AdminSource {
  adminFor(cluster: KvstoreCluster): Promise<PortResult<MemberAdmin>>;
  /** Closes every admin made. */
  close(): void;
}

/** Calls to one member, addressed by its client URL (`http(s)://host:port`). */
export interface MemberAdmin {
  version(clientURL: string, signal?: AbortSignal): Promise<PortResult<MemberVersion>>;
  /** `/health` answered 200 with `"health":"true"`. */
  health(clientURL: string, signal?: AbortSignal): Promise<PortResult<boolean>>;
  metrics(clientURL: string, signal?: AbortSignal): Promise<PortResult<MemberMetrics>>;
  status(clientURL: string, signal?: AbortSignal): Promise<PortResult<MemberStatusInfo>>;
  /** Active alarms of the cluster as `<memberId>:<NOSPACE|CORRUPT>`. */
  alarms(clientURL: string, signal?: AbortSignal): Promise<PortResult<readonly string[]>>;
  /** A linearizable Range of one key, answered (its content does not matter). */
  linearizableRead(clientURL: string, signal?: AbortSignal): Promise<PortResult<void>>;
  /**
   * Whether auth is enabled: Auth.AuthStatus without a token (a refusal for lack of a user or
   * permission = enabled); where the server lacks it (Unimplemented, `not capable`), a Range
   * without a token (refused for lack of a user = enabled, answered = disabled). A failure when
   * neither tells.
   */
  authEnabled(clientURL: string, signal?: AbortSignal): Promise<PortResult<boolean>>;
  memberList(clientURL: string, signal?: AbortSignal): Promise<PortResult<readonly ClusterMember[]>>;
  /** Cluster.MemberAdd as learner; the new member's id. */
  addLearner(clientURL: string, peerURL: string): Promise<PortResult<string>>;
  promote(clientURL: string, memberId: string): Promise<PortResult<void>>;
  remove(clientURL: string, memberId: string): Promise<PortResult<void>>;
  /**
   * Maintenance.Snapshot into `<file>.part`, SHA-256 trailer verified, fsynced, renamed to
   * `<file>`. On any failure the `.part` file is removed and nothing is left at `<file>`.
   */
  snapshot(clientURL: string, file: string, signal?: AbortSignal): Promise<PortResult<SnapshotFile>>;
  /** Keys in the whole key space: a linearizable Range count_only (the upgrade rehearsal's check). */
  keyCount(clientURL: string, signal?: AbortSignal): Promise<PortResult<number>>;
  /** Closes every connection. */
  close(): void;
}

/** Where pre-upgrade snapshot files of one cluster go. */
export interface SnapshotStore {
  /** Absolute path (or path inside the snapshot volume) for a snapshot file name chosen by reconcile. */
  pathOf(cluster: KvstoreCluster, fileName: string): string;
  /** Makes sure the directory exists. */
  prepare(cluster: KvstoreCluster): Promise<PortResult<void>>;
  /** Snapshot files of this cluster, oldest first. */
  list(cluster: KvstoreCluster): Promise<PortResult<readonly string[]>>;
  /** Removes all but the newest `keep` files; the removed paths. */
  prune(cluster: KvstoreCluster, keep: number): Promise<PortResult<readonly string[]>>;
}

/** The scratch member of an upgrade rehearsal as the platform holds it (no member calls). */
export interface ScratchView {
  readonly id: string;
  /** Starting: the restore runs; Running: the process / pod runs; Failed: the restore failed or it exited. */
  readonly phase: 'Starting' | 'Running' | 'Failed';
  /** `http://host:port` of its client listener ('' until known). */
  readonly clientURL: string;
  /** Read from the snapshot file: its revision (as a restored member reports it) and live keys. */
  readonly expected?: { readonly revision: number; readonly keys: number };
  readonly error?: string;
  /** The last ~20 lines of its log. */
  readonly logTail: string;
  /** A remark on where it runs, carried into the status message (e.g. a fallback that does not rehearse the member image). */
  readonly note?: string;
}

/**
 * Where upgrade rehearsals run (operator/controller/upgrade/rehearsal.ts): one scratch single
 * member per cluster at most, restored from a snapshot file of the SnapshotStore, never joined to
 * the cluster. Local: a `kvstore` process on a free loopback address; Kubernetes: a pod.
 */
export interface RehearsalPlatform {
  /** Removes any earlier scratch member of the cluster, then restores `snapshotPath` (SnapshotStore.pathOf)
   * into a new one at `version`, known as `id`. A restore that fails later shows as phase Failed. */
  start(cluster: KvstoreCluster, id: string, snapshotPath: string, version: string): Promise<PortResult<void>>;
  /** The cluster's scratch member, undefined when there is none. */
  observe(cluster: KvstoreCluster, signal: AbortSignal): Promise<PortResult<ScratchView | undefined>>;
  /** Stops and removes the scratch member and its data; nothing to remove is not an error. */
  cleanup(cluster: KvstoreCluster): Promise<PortResult<void>>;
}

/** Writes the status (local: into the manifest file; Kubernetes: the status subresource). */
export interface StatusSink {
  write(cluster: KvstoreCluster, status: KvstoreClusterStatus): Promise<PortResult<void>>;
}

/** Records events (local: log lines + an events file; Kubernetes: core/v1 Events). */
export interface EventSink {
  emit(cluster: KvstoreCluster, event: PlannedEvent): Promise<void>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Operator metrics the engine counts (prom-client behind it; no default registry). */
export interface EngineMetrics {
  upgradeStarted(cluster: string): void;
  upgradeCompleted(cluster: string): void;
  upgradeBlocked(cluster: string): void;
  memberUpgradeDuration(cluster: string, seconds: number): void;
  reconcileError(cluster: string): void;
  /** A scheduled backup ended (controller/backup/); optional for metrics sinks that do not count backups. */
  backupFinished?(cluster: string, result: BackupMetric): void;
}

/** What the backup metrics need of one backup. */
export interface BackupMetric {
  readonly ok: boolean;
  readonly seconds: number;
  /** Size of a successful backup. */
  readonly bytes?: number;
  /** When a successful backup completed (ms since the epoch). */
  readonly atMs?: number;
}

/** The structured logger the engine writes to (a pino logger fits). */
export interface EngineLogger {
  info(fields: Readonly<Record<string, unknown>>, msg: string): void;
  warn(fields: Readonly<Record<string, unknown>>, msg: string): void;
  error(fields: Readonly<Record<string, unknown>>, msg: string): void;
  debug(fields: Readonly<Record<string, unknown>>, msg: string): void;
}

/** The reconcile function the engine calls (operator/controller/reconcile.ts). */
export type ReconcileFn = (cluster: KvstoreCluster, observed: Observed) => Plan;
