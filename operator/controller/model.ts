/**
 * What one reconcile pass sees and what it decides: the boundary between the pure reconcile
 * (operator/controller/reconcile.ts and the upgrade planner) and the executor that does I/O.
 *
 * `Observed` is gathered by observe.ts through the ports (platform + member admin calls);
 * `reconcile(cluster, observed) → Plan` is pure and synchronous (no clock: `observed.now`);
 * the executor carries out `plan.actions` in order, stops at the first failure, then writes
 * `plan.status` and `plan.events`. A pass takes at most ONE membership or upgrade step.
 */
import type { KvstoreClusterStatus, SnapshotRecord } from '../api/types.js';
import type { BackupOutcome } from './backup/outcome.js';
import type { RestoreCheck, RestoreRequest } from './restore/restore-check.js';

/** What a member says about itself; absent fields = could not be read. */
export interface MemberProbe {
  /** `/version` → `etcdserver`. */
  readonly serverVersion: string;
  /** `/version` → `etcdcluster`. */
  readonly clusterVersion: string;
  /** `/health` answered `"health":"true"`. */
  readonly healthy: boolean;
  /** A linearizable Range was answered. */
  readonly linearizableRead: boolean;
  /** `/metrics` → `kvstore_server_is_leader == 1`. */
  readonly isLeader: boolean;
  /** `/metrics` → `kvstore_v2_store_size_bytes`; undefined when it cannot be read. */
  readonly v2StoreBytes?: number;
  /** Member id, 16 hex digits. */
  readonly memberId: string;
  /** Maintenance.Status header revision. */
  readonly revision: number;
  /** Active alarms (`NOSPACE`, `CORRUPT`). */
  readonly alarms: readonly string[];
  readonly isLearner: boolean;
  /**
   * Auth enabled on the cluster (Auth.AuthStatus, asked with the operator's TLS identity but no
   * token; where the server lacks it, a Range without a token refused for lack of a user).
   * Undefined when neither could tell (a failure, a timeout): the upgrade path rules that depend
   * on auth then refuse (fail safe, path.ts).
   */
  readonly authEnabled: boolean | undefined;
}

/** One member slot (ordinal) as the platform and the member itself show it. */
export interface ObservedMember {
  /** `<cluster>-<ordinal>`. */
  readonly name: string;
  readonly ordinal: number;
  /** A pod / process exists for this slot. */
  readonly exists: boolean;
  /** The pod is Running / the process is alive. */
  readonly running: boolean;
  /** Version the platform runs this member with (pod image tag / process env); '' if none. */
  readonly runVersion: string;
  readonly clientURL: string;
  readonly peerURL: string;
  /**
   * The platform saw this slot's data go away after the member had run on it (local: the data
   * dir or its WAL vanished; the platform then keeps the member stopped). Absent = not known lost.
   */
  readonly dataLost?: boolean;
  /** Undefined when the member could not be reached. */
  readonly probe?: MemberProbe;
}

/** An entry of Cluster.MemberList as a reachable member reports it. */
export interface ClusterMember {
  readonly id: string;
  readonly name: string;
  readonly peerURLs: readonly string[];
  readonly isLearner: boolean;
}

/** Outcome of a TakeSnapshot action of an earlier pass (kept by the engine until recorded; a new
 * TakeSnapshot replaces it). reconcile only uses an outcome whose `forVersion` is the upgrade's target
 * and, when ok, whose `record.takenAt` is not before the upgrade's `startedAt`. */
export type SnapshotOutcome =
  | { readonly ok: true; readonly forVersion: string; readonly record: SnapshotRecord }
  | { readonly ok: false; readonly forVersion: string; readonly error: string };

/**
 * The scratch member of an upgrade rehearsal as the platform and the member show it (rehearsal.ts
 * in upgrade/ decides). `expected` is read from the snapshot file itself (its newest revision,
 * never below the compaction revision nor 1, and its live keys); `served` is what the scratch
 * member answers (/health, Maintenance.Status revision, a linearizable Range count_only).
 */
export interface RehearsalObservation {
  readonly id: string;
  /** Starting: restoring or not answering yet; Serving: its process runs; Failed: the restore failed or the process exited. */
  readonly phase: 'Starting' | 'Serving' | 'Failed';
  readonly expected?: { readonly revision: number; readonly keys: number };
  readonly served?: { readonly healthy: boolean; readonly revision?: number; readonly keys?: number };
  readonly error?: string;
  /** The last lines of the scratch member's log (restore messages included). */
  readonly logTail: string;
  /** What the platform says of where it rehearses, when it is worth telling (ScratchView.note). */
  readonly note?: string;
}

export interface Observed {
  /** RFC 3339 time of this pass (injected clock). */
  readonly now: string;
  /** Owned objects (StatefulSet and services / local process table) exist. */
  readonly objectsExist: boolean;
  /** Version new or recreated members get (StatefulSet template / local desired); '' if none. */
  readonly templateVersion: string;
  /** Member slots by ordinal (0 … max(existing, spec.size) - 1). */
  readonly members: readonly ObservedMember[];
  /** Membership as a reachable member reports it; undefined when none answered. */
  readonly clusterMembers?: readonly ClusterMember[];
  readonly snapshotOutcome?: SnapshotOutcome;
  /** Outcome of the last pass's TakeBackup (kept by the engine until a pass that saw it wrote its status). */
  readonly backupOutcome?: BackupOutcome;
  /** The cluster's rehearsal scratch member, when one exists. */
  readonly rehearsal?: RehearsalObservation;
  /** The snapshot spec.restoreFrom names, checked; present only while a restore may still start (restore/needs-check.ts). */
  readonly restoreCheck?: RestoreCheck;
}

export type Action =
  /** Create or update the owned objects for `replicas` members, new members at `version`; with `restore`
   * (only at creation) every founding member's empty data dir is first restored from that snapshot. */
  | { readonly kind: 'EnsureObjects'; readonly version: string; readonly replicas: number; readonly restore?: RestoreRequest }
  /** Change the version recreated members get (StatefulSet template image / local desired). */
  | { readonly kind: 'SetTemplateVersion'; readonly version: string }
  /** Stop the member so the platform brings it back at the template version (delete the pod). */
  | { readonly kind: 'RestartMember'; readonly name: string }
  /** Stream a snapshot from `member` to `<file>.part`, verify SHA-256 + revision, rename to `<file>`. */
  | { readonly kind: 'TakeSnapshot'; readonly member: string; readonly clientURL: string; readonly file: string; readonly forVersion: string }
  /** Keep only the newest `keep` snapshot files of this cluster. */
  | { readonly kind: 'PruneSnapshots'; readonly keep: number }
  /** Cluster.MemberAdd as learner for slot `name` (then EnsureObjects starts it with state `existing`). */
  | { readonly kind: 'AddLearner'; readonly name: string; readonly peerURL: string }
  | { readonly kind: 'PromoteLearner'; readonly memberId: string }
  | { readonly kind: 'RemoveMember'; readonly memberId: string; readonly name: string }
  /** Replace a failed member's slot: delete its data (PVC / data dir) and its pod / process, so it comes
   * back empty and joins the running cluster (`initial-cluster-state existing`) as the learner that an
   * AddLearner of the same pass registered. Only planned right after AddLearner for the same `name`. */
  | { readonly kind: 'ResetMember'; readonly name: string }
  /** A scheduled backup (controller/backup/): stream from `member` (the leader), verify, publish as `name` at spec.backup.destination.
   * Its failure is an outcome (status.backups.lastFailure), not a failed action. */
  | { readonly kind: 'TakeBackup'; readonly member: string; readonly clientURL: string; readonly name: string }
  /** Delete these backups at spec.backup.destination (retention, after a success). */
  | { readonly kind: 'PruneBackups'; readonly names: readonly string[] }

  /** Restore snapshot `file` (as recorded; its base name is looked up in the snapshot store) into a scratch single member at `version`,
   * known as `id` (any earlier scratch member of the cluster is removed first). */
  | { readonly kind: 'StartRehearsal'; readonly id: string; readonly file: string; readonly version: string }
  /** Remove the cluster's scratch member and its data, if any. */
  | { readonly kind: 'StopRehearsal' };

export interface PlannedEvent {
  readonly type: 'Normal' | 'Warning';
  /** CamelCase, e.g. `UpgradeStarted`, `MemberUpgraded`, `DowngradeRefused`. */
  readonly reason: string;
  readonly message: string;
}

export interface Plan {
  readonly actions: readonly Action[];
  /** Status to write after the actions (also written when an action fails, with Degraded set). */
  readonly status: KvstoreClusterStatus;
  readonly events: readonly PlannedEvent[];
  /** Pass again after this many seconds (absent: only on change). */
  readonly requeueAfterSeconds?: number;
}
