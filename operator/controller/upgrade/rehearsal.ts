/**
 * The upgrade rehearsal (state Rehearsing): after the verified pre-upgrade snapshot and before
 * the first member is touched, the snapshot is restored into a scratch single member running the
 * TARGET version; it must start, answer /health, and serve the snapshot's revision and key count
 * (a linearizable Range count_only) within `upgrade.rehearsalTimeoutSeconds`. Then:
 * - passed → `status.upgrade.rehearsal` records the outcome (revision, keys, duration), the scratch
 *   member is removed (StopRehearsal) and the first member starts in the same pass;
 * - failed (the restore or the process failed, a figure differs, the timeout passed) → Blocked,
 *   UpgradeBlocked True reason `RehearsalFailed`, one Warning event with the scratch member's log
 *   tail, the scratch member removed; no member is touched. The way on: spec.version back to
 *   `from` (nothing was touched: RolledBack at once; a later upgrade rehearses a new snapshot), or
 *   `spec.upgrade.rehearsal: false` (go on without).
 * The outcome is decided from the observation and written in the same pass: an operator that
 * restarts mid-rehearsal finds no outcome and rehearses again (the platform's scratch member is
 * the one named by `rehearsal.id`, any other is replaced); a lost outcome is never a pass.
 * Pure.
 */
import type { RehearsalRecord, UpgradeStatus } from '../../api/types.js';
import type { PlannedEvent, RehearsalObservation } from '../model.js';
import type { PlanContext } from '../context.js';
import { normal, verdict, warning, type Step } from '../step.js';
import { addSeconds, compactTime, secondsBetween } from '../time.js';
import { rollStep } from './roll.js';

/** Re-observe the scratch member this often while it starts. */
export const REHEARSAL_POLL_SECONDS = 2;
/** Re-observe a cluster blocked by a failed rehearsal this often (spec edits trigger a pass anyway). */
export const REHEARSAL_BLOCKED_POLL_SECONDS = 60;

export function rehearsalEnabled(ctx: PlanContext): boolean {
  return ctx.spec.upgrade.rehearsal !== false;
}

function timeoutOf(ctx: PlanContext): number {
  return ctx.spec.upgrade.rehearsalTimeoutSeconds ?? 300;
}

/** Start (or start again) the rehearsal of `up.snapshot` at `up.to`: a new attempt id. */
export function startRehearsal(ctx: PlanContext, up: UpgradeStatus, events: readonly PlannedEvent[], again = false): Step {
  const file = up.snapshot?.file ?? '';
  const id = `${ctx.name}-${compactTime(ctx.now).toLowerCase()}`;
  const record: RehearsalRecord = { id, startedAt: ctx.now };
  const { reason: _r, ...rest } = up;
  const message = `rehearsing the upgrade: restoring snapshot ${file} into a scratch member at ${up.to} (until ${addSeconds(ctx.now, timeoutOf(ctx))})`;
  const note = again ? normal('RehearsalRestarted', `the rehearsal's scratch member is gone (operator restart?): ${message}`) : normal('RehearsalStarted', message);
  return {
    actions: [{ kind: 'StartRehearsal', id, file, version: up.to }],
    events: [...events, note],
    upgrade: { ...rest, state: 'Rehearsing', rehearsal: record },
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('True', 'Rehearsing', message),
    requeueAfterSeconds: REHEARSAL_POLL_SECONDS,
  };
}

/** The snapshot was recorded: rehearse it, or (rehearsal off) start the first member. */
export function afterSnapshot(ctx: PlanContext, up: UpgradeStatus, events: readonly PlannedEvent[]): Step {
  if (!rehearsalEnabled(ctx)) return rollStep(ctx, { ...up, state: 'UpgradingMembers' }, 'forward', events);
  return startRehearsal(ctx, up, events);
}

/** Why the scratch member's answers do not match the snapshot, or undefined when they do. */
export function mismatch(o: RehearsalObservation): string | undefined {
  const e = o.expected;
  const s = o.served;
  if (e === undefined || s?.revision === undefined || s.keys === undefined) return 'incomplete figures';
  if (s.revision !== e.revision) return `it serves revision ${s.revision}, the snapshot holds ${e.revision}`;
  if (s.keys !== e.keys) return `it serves ${s.keys} keys, the snapshot holds ${e.keys}`;
  return undefined;
}

/** `; <note>` when the platform has a remark on where it rehearses, else ''. */
function noteOf(o: RehearsalObservation): string {
  return o.note === undefined ? '' : `; ${o.note}`;
}

/** Served figures complete enough to judge (healthy, revision and key count read). */
function answered(o: RehearsalObservation): boolean {
  return o.phase === 'Serving' && o.served?.healthy === true && o.served.revision !== undefined && o.served.keys !== undefined && o.expected !== undefined;
}

function failed(ctx: PlanContext, up: UpgradeStatus, rec: RehearsalRecord, why: string, logTail: string, events: readonly PlannedEvent[]): Step {
  const duration = Math.max(0, secondsBetween(rec.startedAt, ctx.now));
  const message = `the upgrade rehearsal of ${up.from} → ${up.to} failed: ${why}; no member was touched (set spec.version back to ${up.from} to abandon the upgrade, or spec.upgrade.rehearsal: false to go on without)`;
  const tail = logTail.trim() === '' ? '' : `\nscratch member log (last lines):\n${logTail.trimEnd()}`;
  return {
    actions: [{ kind: 'StopRehearsal' }],
    events: [...events, warning('UpgradeBlocked', `${message}${tail}`)],
    upgrade: { ...up, state: 'Blocked', reason: `rehearsal failed: ${why}`, rehearsal: { ...rec, outcome: 'Failed', durationSeconds: duration, message: why } },
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('False', 'RehearsalFailed', message),
    blocked: verdict('True', 'RehearsalFailed', message),
    requeueAfterSeconds: REHEARSAL_BLOCKED_POLL_SECONDS,
  };
}

/** State Rehearsing: judge the scratch member named by the record. */
export function rehearsalStep(ctx: PlanContext, up: UpgradeStatus): Step {
  const rec = up.rehearsal;
  if (!rehearsalEnabled(ctx)) {
    const skipped = normal('RehearsalSkipped', 'spec.upgrade.rehearsal is false: the rehearsal is abandoned and the upgrade goes on');
    const { rehearsal: _x, ...rest } = up;
    const step = rollStep(ctx, { ...rest, state: 'UpgradingMembers' }, 'forward', [skipped]);
    return { ...step, actions: [{ kind: 'StopRehearsal' }, ...step.actions] };
  }
  const o = ctx.observed.rehearsal;
  if (rec === undefined || o === undefined || o.id !== rec.id) return startRehearsal(ctx, up, [], rec !== undefined);
  if (o.phase === 'Failed') return failed(ctx, up, rec, o.error ?? 'the scratch member failed', o.logTail, []);
  const elapsed = secondsBetween(rec.startedAt, ctx.now);
  if (answered(o)) {
    const bad = mismatch(o);
    if (bad !== undefined) return failed(ctx, up, rec, bad, o.logTail, []);
    const revision = o.served?.revision ?? 0;
    const keys = o.served?.keys ?? 0;
    const passed: RehearsalRecord = { ...rec, outcome: 'Passed', revision, keys, durationSeconds: Math.max(0, elapsed) };
    const event = normal('RehearsalPassed', `snapshot ${up.snapshot?.file ?? ''} restored into a scratch member at ${up.to}: healthy, revision ${revision}, ${keys} keys, as the snapshot holds (${Math.max(0, elapsed)}s)${noteOf(o)}`);
    const step = rollStep(ctx, { ...up, state: 'UpgradingMembers', rehearsal: passed }, 'forward', [event]);
    return { ...step, actions: [{ kind: 'StopRehearsal' }, ...step.actions] };
  }
  if (elapsed >= timeoutOf(ctx)) return failed(ctx, up, rec, `the scratch member did not serve the snapshot at ${up.to} within ${timeoutOf(ctx)}s`, o.logTail, []);
  const message = `rehearsing the upgrade: the scratch member at ${up.to} is ${o.phase === 'Starting' ? 'starting' : 'not answering yet'} (${elapsed}s of ${timeoutOf(ctx)}s)${noteOf(o)}`;
  return {
    actions: [],
    events: [],
    upgrade: up,
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('True', 'Rehearsing', message),
    requeueAfterSeconds: REHEARSAL_POLL_SECONDS,
  };
}

/** Blocked by a failed rehearsal: hold (no event again), or go on once spec.upgrade.rehearsal is false. */
export function rehearsalBlockedStep(ctx: PlanContext, up: UpgradeStatus): Step {
  if (!rehearsalEnabled(ctx)) {
    const { reason: _r, ...rest } = up;
    return rollStep(ctx, { ...rest, state: 'UpgradingMembers' }, 'forward', [normal('RehearsalSkipped', 'spec.upgrade.rehearsal is false: going on despite the failed rehearsal')]);
  }
  const message = `the upgrade rehearsal of ${up.from} → ${up.to} failed: ${up.rehearsal?.message ?? 'see the UpgradeBlocked event'}; no member was touched`;
  return {
    actions: ctx.observed.rehearsal === undefined ? [] : [{ kind: 'StopRehearsal' }],
    events: [],
    upgrade: up,
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('False', 'RehearsalFailed', message),
    blocked: verdict('True', 'RehearsalFailed', message),
    requeueAfterSeconds: REHEARSAL_BLOCKED_POLL_SECONDS,
  };
}

/** A failed rehearsal blocks the upgrade (state Blocked with a Failed rehearsal and no member in flight). */
export function blockedByRehearsal(up: UpgradeStatus): boolean {
  return up.state === 'Blocked' && up.rehearsal?.outcome === 'Failed' && up.currentMember === undefined && up.membersDone.length === 0;
}
