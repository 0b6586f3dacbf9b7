/**
 * The scheduled-backup planner: run after the pass's main rule (reconcile.ts), it records the
 * outcome of the last backup, applies retention after a success and decides whether a new backup
 * is due. Pure (no clock: `ctx.now`; no I/O). Never blocks other work:
 *
 * 1. An outcome of the last attempt (`observed.backupOutcome` whose name is `lastAttempt.name`,
 *    not yet recorded) → success: `lastSuccess`, `retained` = what the destination holds, event
 *    `BackupTaken`, and when the retention (retention.ts) drops some, `PruneBackups` + `BackupsPruned`;
 *    failure: `lastFailure`, Warning `BackupFailed`. Nothing else changes (no Degraded).
 * 2. No `spec.backup` → the history is kept, without `nextRun`.
 * 3. `nextRun` is computed from the schedule when there is none or the schedule changed
 *    (`status.backups.schedule`): the first backup comes at the first scheduled time after that.
 * 4. Due (`now ≥ nextRun`), not suspended, not paused, the objects exist → wait (still due, pass
 *    again within BACKUP_RETRY_SECONDS) while the main rule has actions this pass (an upgrade or
 *    membership step wins), an upgrade is snapshotting, the cluster is being created, or a prune
 *    runs; else a `TakeBackup` from the ready leader (`lastAttempt`, `nextRun` = the next time
 *    after now). No ready leader → a failure at once (`lastFailure`, `BackupFailed`). Either way
 *    a failed backup is retried at the next scheduled time, and several missed times (operator
 *    down) make one backup.
 * 5. Requeue: 1 s after a TakeBackup (to record it), else by `nextRun`.
 */
import { nextAfter, parseCron } from '../../api/cron.js';
import type { BackupStatus } from '../../api/types.js';
import { leadersOf, memberReady, type PlanContext } from '../context.js';
import type { Action, PlannedEvent } from '../model.js';
import { normal, warning, type Step } from '../step.js';
import { toMillis } from '../time.js';
import { backupName } from './names.js';
import type { BackupOutcome } from './outcome.js';
import { selectPrune } from './retention.js';

/** How soon a due backup that had to wait is looked at again. */
export const BACKUP_RETRY_SECONDS = 5;

export interface BackupStep {
  readonly actions: readonly Action[];
  readonly events: readonly PlannedEvent[];
  /** The new `status.backups` (undefined: none). */
  readonly status: BackupStatus | undefined;
  readonly requeueAfterSeconds?: number;
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function recorded(prev: BackupStatus | undefined, o: BackupOutcome): boolean {
  return prev?.lastSuccess?.name === o.name || prev?.lastFailure?.name === o.name;
}

interface Recorded {
  readonly status: BackupStatus | undefined;
  readonly actions: Action[];
  readonly events: PlannedEvent[];
}

/** Rule 1: the last attempt's outcome into the status (and retention after a success). */
function recordOutcome(ctx: PlanContext): Recorded {
  const prev = ctx.prev?.backups;
  const o = ctx.observed.backupOutcome;
  if (o === undefined || prev === undefined || prev.lastAttempt?.name !== o.name || recorded(prev, o)) return { status: prev, actions: [], events: [] };
  if (!o.ok) {
    return {
      status: { ...prev, lastFailure: { name: o.name, time: o.time, reason: o.error } },
      actions: [],
      events: [warning('BackupFailed', `backup ${o.name} failed: ${o.error}`)],
    };
  }
  const r = o.record;
  const events = [normal('BackupTaken', `backup ${r.name} taken from ${r.member}: revision ${r.revision}, ${r.size} bytes, sha256 ${r.sha256.slice(0, 12)}…, at ${r.uri}`)];
  const spec = ctx.spec.backup;
  const prune = spec === undefined || ctx.spec.paused ? [] : selectPrune(o.stored, spec.retention, ctx.now, o.name);
  const retained = o.stored.filter((b) => !prune.includes(b.name));
  const actions: Action[] = [];
  if (prune.length > 0) {
    actions.push({ kind: 'PruneBackups', names: prune });
    events.push(normal('BackupsPruned', `deleted ${prune.length} backup(s) by retention (${retained.length} kept): ${prune.join(', ')}`));
  }
  return { status: { ...prev, lastSuccess: r, retained }, actions, events };
}

/** Why a due backup waits this pass; undefined when it may start. */
function waitReason(step: Step, pruning: boolean): string | undefined {
  if (step.actions.length > 0) return 'another step runs this pass';
  if (step.upgrade?.state === 'Snapshotting') return 'an upgrade is taking its snapshot';
  if (step.phase === 'Creating') return 'the cluster is being created';
  if (pruning) return 'retention runs this pass';
  return undefined;
}

export function planBackup(ctx: PlanContext, step: Step): BackupStep {
  const rec = recordOutcome(ctx);
  const spec = ctx.spec.backup;
  if (spec === undefined) {
    if (rec.status === undefined) return { ...rec, status: undefined };
    const { nextRun: _n, schedule: _s, ...rest } = rec.status;
    return { ...rec, status: rest };
  }
  const cron = parseCron(spec.schedule);
  const base: BackupStatus = rec.status ?? { retained: [] };
  if (!cron.ok) return { ...rec, status: { ...base, schedule: spec.schedule } };
  const nowMs = toMillis(ctx.now);
  const nextOf = (ms: number): string | undefined => {
    const n = nextAfter(cron.schedule, ms);
    return n === undefined ? undefined : iso(n);
  };
  const fresh = base.schedule !== spec.schedule || base.nextRun === undefined;
  const nextRun = fresh ? nextOf(nowMs) : base.nextRun;
  const status: BackupStatus = { ...base, schedule: spec.schedule, ...(nextRun === undefined ? {} : { nextRun }) };
  const untilNext = (at: string | undefined): number | undefined => (at === undefined ? undefined : Math.max(1, Math.ceil((toMillis(at) - nowMs) / 1000)));
  const due = !fresh && nextRun !== undefined && toMillis(nextRun) <= nowMs;
  if (!due || spec.suspend || ctx.spec.paused || !ctx.observed.objectsExist) {
    const requeue = spec.suspend || ctx.spec.paused ? undefined : untilNext(nextRun);
    return { ...rec, status, ...(requeue === undefined ? {} : { requeueAfterSeconds: requeue }) };
  }
  if (waitReason(step, rec.actions.length > 0) !== undefined) return { ...rec, status, requeueAfterSeconds: BACKUP_RETRY_SECONDS };
  const name = backupName(ctx.name, ctx.now);
  const following = nextOf(nowMs);
  const attempted: BackupStatus = { ...status, lastAttempt: { name, time: ctx.now }, ...(following === undefined ? {} : { nextRun: following }) };
  const leaders = leadersOf(ctx.slots).filter(memberReady);
  if (leaders.length !== 1) {
    const reason = leaders.length === 0 ? 'no ready leader to stream the backup from' : `${leaders.length} members claim leadership`;
    return {
      actions: rec.actions,
      events: [...rec.events, warning('BackupFailed', `backup ${name} not taken: ${reason}; next try at ${following ?? 'never'}`)],
      status: { ...attempted, lastFailure: { name, time: ctx.now, reason } },
      ...(untilNext(following) === undefined ? {} : { requeueAfterSeconds: untilNext(following) }),
    };
  }
  const leader = leaders[0];
  return {
    actions: [...rec.actions, { kind: 'TakeBackup', member: leader.name, clientURL: leader.clientURL, name }],
    events: rec.events,
    status: attempted,
    requeueAfterSeconds: 1,
  };
}
