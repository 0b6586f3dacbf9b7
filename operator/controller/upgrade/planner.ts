/**
 * The version side of reconcile: starts, continues, rolls back or refuses a change of
 * spec.version. Every decision derives from status.upgrade + the observation, so an operator
 * restarted mid-upgrade continues where it stopped. Returns undefined when the members already
 * run spec.version and no upgrade is under way (the membership rules and the steady state apply).
 *
 * Upgrade states (status.upgrade.state):
 *   Snapshotting → Rehearsing → UpgradingMembers ⇄ WaitingV2 → Finalizing → Completed
 *   any of those before Finalizing + spec.version back to `from` → RollingBack → RolledBack
 *   snapshot failure, failed rehearsal or a member past its health deadline → Blocked (continues when it clears)
 *   a third spec.version: refused once a member was touched, else it replaces the target
 * Pure.
 */
import type { UpgradeStatus } from '../../api/types.js';
import { memberVersion, type PlanContext } from '../context.js';
import { normal, type Step } from '../step.js';
import { secondsBetween } from '../time.js';
import { refusal } from './refusal.js';
import { isActiveState } from './states.js';
import { finalizeStep, settled } from './finish.js';
import { rollStep } from './roll.js';
import { redirect } from './redirect.js';
import { snapshotStep, startUpgrade, SNAPSHOT_RETRY_SECONDS } from './start.js';
import { planNew } from './new-change.js';
import { blockedByRehearsal, rehearsalBlockedStep, rehearsalStep } from './rehearsal.js';

export function isActive(up: UpgradeStatus | undefined): up is UpgradeStatus {
  return up !== undefined && isActiveState(up.state);
}

export function planVersion(ctx: PlanContext): Step | undefined {
  const up = ctx.prev?.upgrade;
  const step = isActive(up) ? planActive(ctx, up) : planNew(ctx);
  return step === undefined ? undefined : withoutScratch(ctx, step);
}

/** A rehearsal scratch member left over once the upgrade is no longer rehearsing is removed. */
function withoutScratch(ctx: PlanContext, step: Step): Step {
  if (ctx.observed.rehearsal === undefined || step.upgrade?.state === 'Rehearsing') return step;
  if (step.actions.some((a) => a.kind === 'StopRehearsal' || a.kind === 'StartRehearsal')) return step;
  return { ...step, actions: [{ kind: 'StopRehearsal' }, ...step.actions] };
}

function planActive(ctx: PlanContext, up: UpgradeStatus): Step {
  const want = ctx.spec.version;
  const changed = `spec.version changed to ${want} during the change ${up.from} → ${up.to}: set it to ${up.to} to continue or to ${up.from} to roll back`;
  if (up.state === 'RollingBack') {
    if (want === up.from) return rollStep(ctx, up, 'back', []);
    if (want === up.to) return redirect(ctx, up, 'forward', [normal('UpgradeResumed', `spec.version is ${up.to} again: resuming the upgrade from ${up.from}`)]);
    return refusal(ctx, 'VersionChangedMidUpgrade', changed);
  }
  if (want === up.to) {
    if (up.state === 'Snapshotting') return snapshotStep(ctx, up);
    if (up.state === 'Rehearsing') return rehearsalStep(ctx, up);
    if (blockedByRehearsal(up)) return rehearsalBlockedStep(ctx, up);
    if (up.state === 'Finalizing') return finalizeStep(ctx, up, []);
    if (up.state === 'Blocked' && up.snapshot === undefined) return retrySnapshot(ctx, up);
    return rollStep(ctx, up, 'forward', []);
  }
  if (want === up.from) {
    if (up.state === 'Finalizing') {
      return refusal(ctx, 'DowngradeRefused', `every member already runs ${up.to}; a rollback to ${up.from} is no longer possible`, 'DowngradeRefused');
    }
    const message = `spec.version is back to ${up.from}: rolling the upgraded members (${up.membersDone.join(', ') || 'none yet'}) back to ${up.from}, leader last`;
    return redirect(ctx, up, 'back', [normal('RollbackStarted', message)]);
  }
  if (untouched(ctx, up)) return planNew(ctx) ?? refusal(ctx, 'VersionChangedMidUpgrade', changed);
  return refusal(ctx, 'VersionChangedMidUpgrade', changed);
}

/** No member restarted yet (still snapshotting, or its snapshot failed): a new target replaces this one. */
function untouched(ctx: PlanContext, up: UpgradeStatus): boolean {
  return up.currentMember === undefined && up.membersDone.length === 0 && !ctx.slots.some((m) => memberVersion(m) === up.to);
}

/** A failed snapshot is retried after SNAPSHOT_RETRY_SECONDS (never skipped). */
function retrySnapshot(ctx: PlanContext, up: UpgradeStatus): Step {
  const since = ctx.prev?.conditions.find((c) => c.type === 'UpgradeBlocked' && c.status === 'True')?.lastTransitionTime;
  const waited = since === undefined ? SNAPSHOT_RETRY_SECONDS : secondsBetween(since, ctx.now);
  if (waited < SNAPSHOT_RETRY_SECONDS) {
    const message = up.reason ?? 'the pre-upgrade snapshot failed';
    return {
      ...refusal(ctx, 'SnapshotFailed', `${message}; retrying in ${SNAPSHOT_RETRY_SECONDS - waited}s`),
      events: [],
      upgrade: up,
      requeueAfterSeconds: SNAPSHOT_RETRY_SECONDS - waited,
    };
  }
  return startUpgrade(ctx, settled(up), 'retry');
}
