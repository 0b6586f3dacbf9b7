/**
 * One reconcile pass of one cluster: observe → reconcile → execute → status + events.
 *
 * Contract:
 * - `pass(cluster)` never throws: a platform failure, a reconcile bug (a throw) or a failed
 *   action is logged, counted as a reconcile error and turns into a short requeue;
 * - a plan that takes a member down (RestartMember, ResetMember) or creates members from a snapshot
 *   (EnsureObjects with restore: status.restore must survive a restart) has its status written BEFORE
 *   the actions too, so whoever reads the status (clients, dashboards, a restarted operator)
 *   knows which member is going down before it goes; a failed write then cancels the actions;
 * - actions run in order and stop at the first failure; the plan's status is still written,
 *   with `Degraded` True (reason `ActionFailed`, the action and the error) and a Warning event —
 *   except a membership change refused as `unhealthy cluster` before anything ran
 *   (deferred-refusal.ts): not a failure, the status says it waits, no event;
 * - the outcome of a TakeSnapshot is kept in memory for the NEXT pass (`observed.snapshotOutcome`)
 *   until a pass that saw it has written its status (reconcile records it there), or a newer
 *   snapshot replaces it; the status, not this memory, is what survives an operator restart;
 * - the status is written only when it differs from the cluster's current one as a JSON value
 *   (key order aside: the API server hands custom resources back with sorted keys); nothing in
 *   it changes from pass to pass by itself (conditions keep their lastTransitionTime while their
 *   status holds, a member its unhealthySince while it stays not ready), so a steady cluster
 *   costs no write;
 * - metrics: upgrades started / completed / blocked from the plan's events, the member upgrade
 *   duration from `status.upgrade.currentMember` → `membersDone`, reconcile errors.
 * - the member admin of a pass comes from the AdminSource when one is given (the cluster's TLS
 *   identity and credentials); when it cannot be made (a Secret missing or malformed) the pass
 *   fails with a Warning event `MemberAccessUnavailable` naming the problem, and is retried;
 * - the outcome of a TakeBackup is handed to the next pass the same way (`observed.backupOutcome`),
 *   and counted at once (`metrics.backupFinished`);
 * - with a RestoreInspector, a pass that may create the cluster from spec.restoreFrom checks the
 *   snapshot first (outside the bounded observation: hashing a large file takes its time) and hands
 *   the result to reconcile as `observed.restoreCheck`;
 * One Engine serves many clusters; its memory is keyed by `<namespace>/<name>` (`<name>` locally).
 */
import type { Condition, KvstoreCluster, KvstoreClusterStatus } from '../api/types.js';
import { isDeferredRefusal, waitingStatus } from './deferred-refusal.js';
import { execute, type ExecuteResult } from './execute.js';
import type { Plan, SnapshotOutcome } from './model.js';
import type { BackupOutcome } from './backup/outcome.js';
import type { BackupStores } from './backup/store-port.js';
import { observe } from './observe.js';
import { sameJson } from './status/same-json.js';
import { needsRestoreCheck, type RestoreInspector } from './restore/restore-source.js';
import { portOk, type AdminSource, type Clock, type EngineLogger, type EngineMetrics, type EventSink, type MemberAdmin, type MemberPlatform, type PortResult, type ReconcileFn, type RehearsalPlatform, type SnapshotStore, type StatusSink } from './ports.js';

export interface EngineDeps {
  readonly platform: MemberPlatform;
  /** One admin for every cluster, or a source giving each cluster the admin of its access (TLS, credentials). */
  readonly admin: MemberAdmin | AdminSource;
  readonly snapshots: SnapshotStore;
  /** Where scheduled backups go (spec.backup); absent: a due backup fails with a reason. */
  readonly backups?: BackupStores;
  /** Where upgrade rehearsals run (operator/controller/upgrade/rehearsal.ts); absent: a rehearsal fails. */
  readonly rehearsal?: RehearsalPlatform;
  readonly status: StatusSink;
  readonly events: EventSink;
  readonly clock: Clock;
  readonly metrics: EngineMetrics;
  readonly logger: EngineLogger;
  readonly reconcile: ReconcileFn;
  /** Bound of one observation (default 5 s). */
  readonly observeTimeoutMs?: number;
  /** Requeue after a failed pass (default 5 s). */
  readonly errorRequeueSeconds?: number;
  /** Checks the snapshot of spec.restoreFrom before a cluster is created (restore/restore-source.ts); absent: such a cluster waits. */
  readonly restore?: RestoreInspector;
}

export interface PassResult {
  /** Pass again after this many seconds (undefined: only on change). */
  readonly requeueAfterSeconds?: number;
  /** The status written (or that would have been: unchanged); undefined when the pass failed before reconcile. */
  readonly status?: KvstoreClusterStatus;
  /** Why the pass did not complete cleanly. */
  readonly error?: string;
}

const keyOf = (c: KvstoreCluster): string => (c.metadata.namespace === undefined ? c.metadata.name : `${c.metadata.namespace}/${c.metadata.name}`);
const iso = (ms: number): string => new Date(ms).toISOString();

/** The plan's status with Degraded True for a failed action (transition time kept when already True). */
function degraded(status: KvstoreClusterStatus, message: string, now: string, generation: number | undefined): KvstoreClusterStatus {
  const prev = status.conditions.find((c) => c.type === 'Degraded');
  const cond: Condition = {
    type: 'Degraded',
    status: 'True',
    reason: 'ActionFailed',
    message,
    lastTransitionTime: prev?.status === 'True' ? prev.lastTransitionTime : now,
    ...(generation === undefined ? {} : { observedGeneration: generation }),
  };
  const others = status.conditions.filter((c) => c.type !== 'Degraded');
  return { ...status, conditions: [...others, cond] };
}

export class Engine {
  private readonly outcomes = new Map<string, SnapshotOutcome>();
  private readonly backupOutcomes = new Map<string, BackupOutcome>();
  private readonly memberStarted = new Map<string, number>();

  constructor(private readonly deps: EngineDeps) {}

  /** Forget a deleted cluster's memory. */
  forget(cluster: KvstoreCluster): void {
    const key = keyOf(cluster);
    this.outcomes.delete(key);
    this.backupOutcomes.delete(key);
    for (const k of [...this.memberStarted.keys()]) if (k.startsWith(`${key}#`)) this.memberStarted.delete(k);
  }

  async pass(cluster: KvstoreCluster): Promise<PassResult> {
    const d = this.deps;
    const key = keyOf(cluster);
    const log = { cluster: key };
    const retry = d.errorRequeueSeconds ?? 5;
    const now = iso(d.clock.now());
    const seen = this.outcomes.get(key);
    const seenBackup = this.backupOutcomes.get(key);
    const admin = await this.adminOf(cluster);
    if (!admin.ok) {
      await d.events.emit(cluster, { type: 'Warning', reason: 'MemberAccessUnavailable', message: admin.error });
      return this.failed(key, `member access: ${admin.error}`, retry);
    }
    const seenObs = await observe(cluster, { platform: d.platform, admin: admin.value, ...(d.rehearsal === undefined ? {} : { rehearsal: d.rehearsal }), timeoutMs: d.observeTimeoutMs ?? 5000 }, now, seen);
    if (!seenObs.ok) return this.failed(key, seenObs.error, retry);
    const withBackup = seenBackup === undefined ? seenObs.value : { ...seenObs.value, backupOutcome: seenBackup };
    const observed = d.restore !== undefined && needsRestoreCheck(cluster, withBackup.objectsExist) ? { ...withBackup, restoreCheck: await d.restore.check(cluster) } : withBackup;
    let plan: Plan;
    try {
      plan = d.reconcile(cluster, observed);
    } catch (err) {
      return this.failed(key, `reconcile threw: ${(err as Error).stack ?? String(err)}`, retry);
    }
    d.logger.debug({ ...log, actions: plan.actions.map((a) => a.kind), phase: plan.status.phase }, 'planned');
    let previous = cluster.status;
    if (plan.actions.some((a) => a.kind === 'RestartMember' || a.kind === 'ResetMember' || (a.kind === 'EnsureObjects' && a.restore !== undefined))) {
      if (!(await this.writeStatus(cluster, plan.status, previous))) return this.failed(key, 'status not written before taking a member down', retry);
      previous = plan.status;
    }
    const result = await execute(cluster, plan.actions, observed, {
      platform: d.platform,
      admin: admin.value,
      snapshots: d.snapshots,
      ...(d.backups === undefined ? {} : { backups: d.backups }),
      ...(d.rehearsal === undefined ? {} : { rehearsal: d.rehearsal }),
      now: () => iso(d.clock.now()),
      nowMs: () => d.clock.now(),
      onAction: (a) => d.logger.info({ ...log, action: a.kind, ...('name' in a ? { member: a.name } : 'member' in a ? { member: a.member } : {}) }, 'executing'),
    });
    if (result.snapshotOutcome !== undefined) this.outcomes.set(key, result.snapshotOutcome);
    if (result.backupOutcome !== undefined) this.backupFinished(key, result.backupOutcome);
    if (isDeferredRefusal(result)) return this.deferred(cluster, plan, result, previous, now, retry);
    const status = result.failure === undefined ? plan.status : degraded(plan.status, `${result.failure.action.kind} failed: ${result.failure.error}`, now, cluster.metadata.generation);
    const written = await this.writeStatus(cluster, status, previous);
    if (written && seen !== undefined && result.snapshotOutcome === undefined && this.outcomes.get(key) === seen) this.outcomes.delete(key);
    if (written && seenBackup !== undefined && result.backupOutcome === undefined && this.backupOutcomes.get(key) === seenBackup) this.backupOutcomes.delete(key);
    await this.emit(cluster, plan, result);
    this.countMembers(key, cluster.status, status);
    if (result.failure !== undefined) {
      d.metrics.reconcileError(key);
      d.logger.warn({ ...log, action: result.failure.action.kind, error: result.failure.error }, 'action failed');
      return { requeueAfterSeconds: Math.min(plan.requeueAfterSeconds ?? retry, retry), status, error: result.failure.error };
    }
    if (!written) return { requeueAfterSeconds: retry, status, error: 'status not written' };
    return { ...(plan.requeueAfterSeconds === undefined ? {} : { requeueAfterSeconds: plan.requeueAfterSeconds }), status };
  }

  /** Keeps a backup's outcome for the next pass, counts and logs it. */
  private backupFinished(key: string, o: BackupOutcome): void {
    this.backupOutcomes.set(key, o);
    const m = this.deps.metrics;
    if (o.ok) {
      m.backupFinished?.(key, { ok: true, seconds: o.seconds, bytes: o.record.size, atMs: Date.parse(o.record.time) });
      this.deps.logger.info({ cluster: key, backup: o.name, uri: o.record.uri, revision: o.record.revision, size: o.record.size, seconds: o.seconds }, 'backup taken');
    } else {
      m.backupFinished?.(key, { ok: false, seconds: o.seconds });
      this.deps.logger.warn({ cluster: key, backup: o.name, error: o.error }, 'backup failed');
    }
  }

  private adminOf(cluster: KvstoreCluster): Promise<PortResult<MemberAdmin>> {
    const a = this.deps.admin;
    return 'adminFor' in a ? a.adminFor(cluster) : Promise.resolve(portOk(a));
  }

  /** A membership change the cluster refused for now: status says it waits, no event, pass again soon. */
  private async deferred(cluster: KvstoreCluster, plan: Plan, result: ExecuteResult, previous: KvstoreClusterStatus | undefined, now: string, retry: number): Promise<PassResult> {
    const action = result.failure?.action.kind ?? 'membership change';
    this.deps.logger.info({ cluster: keyOf(cluster), action, error: result.failure?.error }, 'membership change deferred: the cluster is not ready for it yet');
    const status = waitingStatus(plan.status, action, now);
    const written = await this.writeStatus(cluster, status, previous);
    const requeueAfterSeconds = Math.min(plan.requeueAfterSeconds ?? retry, retry);
    return written ? { requeueAfterSeconds, status } : { requeueAfterSeconds, status, error: 'status not written' };
  }

  private failed(key: string, error: string, retry: number): PassResult {
    this.deps.metrics.reconcileError(key);
    this.deps.logger.error({ cluster: key, error }, 'reconcile pass failed');
    return { requeueAfterSeconds: retry, error };
  }

  /**
   * Writes `status` unless it is the same as `previous` (the status last read or written),
   * compared as JSON values (status/same-json.ts: key order and absent keys do not count), so an
   * idle cluster costs no write.
   */
  private async writeStatus(cluster: KvstoreCluster, status: KvstoreClusterStatus, previous: KvstoreClusterStatus | undefined): Promise<boolean> {
    if (previous !== undefined && sameJson(previous, status)) {
      this.deps.logger.debug({ cluster: keyOf(cluster) }, 'status unchanged');
      return true;
    }
    const w = await this.deps.status.write(cluster, status);
    if (!w.ok) this.deps.logger.error({ cluster: keyOf(cluster), error: w.error }, 'status write failed');
    else {
      const fields = { phase: status.phase, clusterVersion: status.clusterVersion, readyMembers: status.readyMembers, upgrade: status.upgrade?.state, member: status.upgrade?.currentMember };
      this.deps.logger.info({ cluster: keyOf(cluster), ...fields }, 'status written');
    }
    return w.ok;
  }

  private async emit(cluster: KvstoreCluster, plan: Plan, result: ExecuteResult): Promise<void> {
    const key = keyOf(cluster);
    for (const e of plan.events) {
      this.deps.logger.info({ cluster: key, event: e.reason, type: e.type }, e.message);
      if (e.reason === 'UpgradeStarted') this.deps.metrics.upgradeStarted(key);
      else if (e.reason === 'UpgradeCompleted') this.deps.metrics.upgradeCompleted(key);
      else if (e.reason === 'UpgradeBlocked' || e.reason === 'DowngradeRefused') this.deps.metrics.upgradeBlocked(key);
      await this.deps.events.emit(cluster, e);
    }
    if (result.failure !== undefined) {
      await this.deps.events.emit(cluster, { type: 'Warning', reason: 'ActionFailed', message: `${result.failure.action.kind} failed: ${result.failure.error}` });
    }
  }

  /** Member upgrade durations: from the pass that names a member in flight to the one that lists it done. */
  private countMembers(key: string, before: KvstoreClusterStatus | undefined, after: KvstoreClusterStatus): void {
    const up = after.upgrade;
    const now = this.deps.clock.now();
    if (up?.currentMember !== undefined && !this.memberStarted.has(`${key}#${up.currentMember}`)) this.memberStarted.set(`${key}#${up.currentMember}`, now);
    const doneBefore = new Set(before?.upgrade?.membersDone ?? []);
    for (const m of up?.membersDone ?? []) {
      const started = this.memberStarted.get(`${key}#${m}`);
      if (doneBefore.has(m) || started === undefined) continue;
      this.memberStarted.delete(`${key}#${m}`);
      this.deps.metrics.memberUpgradeDuration(key, (now - started) / 1000);
      this.deps.logger.info({ cluster: key, member: m, seconds: (now - started) / 1000 }, 'member upgraded');
    }
  }
}
