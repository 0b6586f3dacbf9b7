/**
 * Carries out a plan's actions in order through the ports and stops at the first failure.
 *
 * Contract:
 * - returns how many actions completed and, on failure, the failed action and why;
 * - TakeSnapshot streams from the named member into the snapshot store's path for the planned
 *   file name; its outcome (success record or failure) is returned as `snapshotOutcome` for the
 *   engine to feed into the next pass, and a failed snapshot also stops the execution;
 * - TakeBackup (backup/run-backup.ts) never fails the execution: its outcome, success or failure, is
 *   returned as `backupOutcome` for the next pass; PruneBackups is an ordinary action;
 * - membership calls (AddLearner, PromoteLearner, RemoveMember) go to a reachable voting member
 *   of the observation, the leader first.
 */
import { basename } from 'node:path';
import type { KvstoreCluster } from '../api/types.js';
import type { Action, Observed, SnapshotOutcome } from './model.js';
import type { BackupOutcome } from './backup/outcome.js';
import { pruneBackups, takeBackup } from './backup/run-backup.js';
import type { BackupStores } from './backup/store-port.js';
import { portFail, portOk, type MemberAdmin, type MemberPlatform, type PortResult, type RehearsalPlatform, type SnapshotStore } from './ports.js';

export interface ExecuteDeps {
  readonly platform: MemberPlatform;
  readonly admin: MemberAdmin;
  readonly snapshots: SnapshotStore;
  /** Where upgrade rehearsals run; absent: StartRehearsal / StopRehearsal do nothing (observe reports the rehearsal failed). */
  readonly rehearsal?: RehearsalPlatform;
  /** RFC 3339 now (recorded as the snapshot's takenAt). */
  readonly now: () => string;
  /** Where scheduled backups go (absent: a TakeBackup fails as an outcome). */
  readonly backups?: BackupStores;
  /** Milliseconds since the epoch (backup durations; default Date.now). */
  readonly nowMs?: () => number;
  /** Told before each action runs. */
  readonly onAction?: (action: Action, index: number) => void;
}

export interface ExecuteResult {
  readonly completed: number;
  readonly failure?: { readonly action: Action; readonly error: string };
  readonly snapshotOutcome?: SnapshotOutcome;
  readonly backupOutcome?: BackupOutcome;
}

/** The client URL of a reachable voting member: the leader first. */
function adminURL(observed: Observed): PortResult<string> {
  const up = observed.members.filter((m) => m.probe !== undefined && !m.probe.isLearner && m.probe.healthy);
  const pick = up.find((m) => m.probe?.isLeader === true) ?? up[0];
  return pick === undefined ? portFail('no healthy voting member to send the membership change to') : portOk(pick.clientURL);
}

async function takeSnapshot(cluster: KvstoreCluster, a: Extract<Action, { kind: 'TakeSnapshot' }>, deps: ExecuteDeps): Promise<SnapshotOutcome> {
  const prepared = await deps.snapshots.prepare(cluster);
  if (!prepared.ok) return { ok: false, forVersion: a.forVersion, error: prepared.error };
  const r = await deps.admin.snapshot(a.clientURL, deps.snapshots.pathOf(cluster, a.file));
  if (!r.ok) return { ok: false, forVersion: a.forVersion, error: r.error };
  const { file, sha256, revision, size } = r.value;
  return { ok: true, forVersion: a.forVersion, record: { file, sha256, revision, size, member: a.member, takenAt: deps.now() } };
}

async function run(cluster: KvstoreCluster, a: Action, observed: Observed, deps: ExecuteDeps): Promise<PortResult<void>> {
  switch (a.kind) {
    case 'EnsureObjects':
      return a.restore === undefined ? deps.platform.ensureObjects(cluster, a.version, a.replicas) : deps.platform.ensureObjects(cluster, a.version, a.replicas, a.restore);
    case 'SetTemplateVersion':
      return deps.platform.setTemplateVersion(cluster, a.version);
    case 'RestartMember':
      return deps.platform.restartMember(cluster, a.name);
    case 'ResetMember':
      return deps.platform.resetMember(cluster, a.name);
    case 'PruneSnapshots': {
      const r = await deps.snapshots.prune(cluster, a.keep);
      return r.ok ? portOk(undefined) : r;
    }
    case 'AddLearner': {
      const url = adminURL(observed);
      if (!url.ok) return url;
      const r = await deps.admin.addLearner(url.value, a.peerURL);
      return r.ok ? portOk(undefined) : r;
    }
    case 'PromoteLearner': {
      const url = adminURL(observed);
      return url.ok ? deps.admin.promote(url.value, a.memberId) : url;
    }
    case 'RemoveMember': {
      const url = adminURL(observed);
      return url.ok ? deps.admin.remove(url.value, a.memberId) : url;
    }
    case 'PruneBackups':
      return pruneBackups(cluster, a, deps.backups);
    case 'StartRehearsal':
      return deps.rehearsal === undefined ? portOk(undefined) : deps.rehearsal.start(cluster, a.id, deps.snapshots.pathOf(cluster, basename(a.file)), a.version);
    case 'StopRehearsal':
      return deps.rehearsal === undefined ? portOk(undefined) : deps.rehearsal.cleanup(cluster);
    case 'TakeSnapshot':
    case 'TakeBackup':
      throw new Error(`${a.kind} is run by execute() itself`);
  }
}

/** Runs `actions` in order (see the file header). */
export async function execute(cluster: KvstoreCluster, actions: readonly Action[], observed: Observed, deps: ExecuteDeps): Promise<ExecuteResult> {
  let snapshotOutcome: SnapshotOutcome | undefined;
  let backupOutcome: BackupOutcome | undefined;
  const withOutcome = (r: Omit<ExecuteResult, 'snapshotOutcome' | 'backupOutcome'>): ExecuteResult => ({
    ...r,
    ...(snapshotOutcome === undefined ? {} : { snapshotOutcome }),
    ...(backupOutcome === undefined ? {} : { backupOutcome }),
  });
  for (let i = 0; i < actions.length; i++) {
    const a = actions[i];
    deps.onAction?.(a, i);
    if (a.kind === 'TakeSnapshot') {
      snapshotOutcome = await takeSnapshot(cluster, a, deps);
      if (!snapshotOutcome.ok) return withOutcome({ completed: i, failure: { action: a, error: snapshotOutcome.error } });
      continue;
    }
    if (a.kind === 'TakeBackup') {
      backupOutcome = await takeBackup(cluster, a, { admin: deps.admin, backups: deps.backups, now: deps.now, nowMs: deps.nowMs ?? Date.now });
      continue;
    }
    const r = await run(cluster, a, observed, deps);
    if (!r.ok) return withOutcome({ completed: i, failure: { action: a, error: r.error } });
  }
  return withOutcome({ completed: actions.length });
}
