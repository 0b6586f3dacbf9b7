// The shapes other parts of the operator were written against (the hand-written contract that
// operator/api/types.ts had before its types were derived from the schema). The `Same<…>`
// assertions below fail to COMPILE when a schema change alters a derived type; readonly-ness
// is left aside (`Mutable`). The runtime test only makes the file part of the suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as T from '../../../operator/api/types.js';

type Mutable<X> = X extends readonly (infer U)[]
  ? Mutable<U>[]
  : X extends object
    ? { -readonly [K in keyof X]: Mutable<X[K]> }
    : X;
type Same<A, B> = [Mutable<A>] extends [Mutable<B>] ? ([Mutable<B>] extends [Mutable<A>] ? true : false) : false;
const same = <A, B>(ok: Same<A, B>): boolean => ok;

interface StorageSpec { size: string; storageClassName?: string }
interface ServerOptions {
  autoCompactionMode?: 'periodic' | 'revision';
  autoCompactionRetention?: string;
  quotaBackendBytes?: number;
  maxRequestBytes?: number;
  enableV2?: boolean;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
}
interface SnapshotSpec { volume: string; keep: number }
interface UpgradeSpec { v2WaitSeconds: number; v2ThresholdBytes: number; memberHealthTimeoutSeconds: number; snapshot: SnapshotSpec; rehearsal: boolean; rehearsalTimeoutSeconds: number }
interface KvstoreClusterSpec {
  size: 1 | 3 | 5 | 7;
  version: string;
  image: string;
  storage: StorageSpec;
  resources?: Record<string, unknown>;
  affinity?: Record<string, unknown>;
  tolerations?: Record<string, unknown>[];
  nodeSelector?: Record<string, string>;
  options: ServerOptions;
  upgrade: UpgradeSpec;
  tls?: { client?: { secretName?: string }; peer?: { secretName?: string }; operator?: { secretName?: string } };
  auth?: { secretName: string };
  restoreFrom?: RestoreFrom;
  paused: boolean;
}
interface RestoreFrom { path?: string; backup?: { cluster: string; namespace?: string; name?: string }; sha256?: string }
interface RestoreStatus { source: string; file: string; sha256: string; revision: number; startedAt: string; restoredAt?: string }
interface Condition {
  type: 'Available' | 'Progressing' | 'Degraded' | 'Upgrading' | 'UpgradeBlocked' | 'RestoreBlocked';
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  lastTransitionTime: string;
  observedGeneration?: number;
}
interface MemberStatus { name: string; id: string; version: string; healthy: boolean; leader: boolean; clientURL: string }
interface SnapshotRecord { file: string; sha256: string; revision: number; size: number; member: string; takenAt: string }
interface RehearsalRecord { id: string; startedAt: string; outcome?: 'Passed' | 'Failed'; revision?: number; keys?: number; durationSeconds?: number; message?: string }
interface UpgradeStatus {
  from: string;
  to: string;
  state: 'Snapshotting' | 'Rehearsing' | 'UpgradingMembers' | 'WaitingV2' | 'Finalizing' | 'RollingBack' | 'Completed' | 'RolledBack' | 'Blocked';
  currentMember?: string;
  membersDone: string[];
  startedAt: string;
  finishedAt?: string;
  waitUntil?: string;
  snapshot?: SnapshotRecord;
  rehearsal?: RehearsalRecord;
  reason?: string;
}
interface KvstoreClusterStatus {
  phase: 'Pending' | 'Creating' | 'Running' | 'Scaling' | 'Upgrading' | 'Degraded' | 'UpgradeBlocked' | 'Paused';
  observedGeneration: number;
  clusterVersion: string;
  readyMembers: string;
  members: MemberStatus[];
  upgrade?: UpgradeStatus;
  restore?: RestoreStatus;
  downgradeFloor?: string;
  conditions: Condition[];
}

const checks = [
  same<T.StorageSpec, StorageSpec>(true),
  same<T.ServerOptions, ServerOptions>(true),
  same<T.SnapshotSpec, SnapshotSpec>(true),
  same<T.UpgradeSpec, UpgradeSpec>(true),
  same<T.KvstoreClusterSpec, KvstoreClusterSpec>(true),
  same<T.Condition, Condition>(true),
  same<T.MemberStatus, MemberStatus>(true),
  same<T.SnapshotRecord, SnapshotRecord>(true),
  same<T.UpgradeStatus, UpgradeStatus>(true),
  same<T.KvstoreClusterStatus, KvstoreClusterStatus>(true),
  same<T.ClusterSize, 1 | 3 | 5 | 7>(true),
  same<T.RestoreFrom, RestoreFrom>(true),
  same<T.RestoreStatus, RestoreStatus>(true),
];
// A negative control: the check does tell shapes apart.
const control = same<T.MemberStatus, Omit<MemberStatus, 'leader'>>(false);

void test('the types derived from the schema keep the shapes the operator was written against', () => {
  assert.ok(checks.every((c) => c));
  assert.equal(control, false);
});
