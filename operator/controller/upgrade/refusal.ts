/**
 * A refused version change: UpgradeBlocked=True with the reason, Progressing=False, a Warning
 * event the first time this reason blocks (not on every pass), no actions ("nothing touched").
 * The previous upgrade record (and its snapshot) is kept. Pure.
 */
import type { PlanContext } from '../context.js';
import { carried, verdict, warning, type Step } from '../step.js';

/** Re-observe a refused cluster this often (spec edits trigger a pass anyway). */
export const REFUSAL_REQUEUE_SECONDS = 60;

/** Whether the previous status already shows UpgradeBlocked=True for `reason`. */
export function alreadyBlocked(ctx: PlanContext, reason: string): boolean {
  return ctx.prev?.conditions.some((c) => c.type === 'UpgradeBlocked' && c.status === 'True' && c.reason === reason) ?? false;
}

export function refusal(ctx: PlanContext, reason: string, message: string, eventReason = 'UpgradeBlocked'): Step {
  return {
    actions: [],
    events: alreadyBlocked(ctx, reason) ? [] : [warning(eventReason, message)],
    ...carried(ctx),
    progressing: verdict('False', reason, message),
    blocked: verdict('True', reason, message),
    requeueAfterSeconds: REFUSAL_REQUEUE_SECONDS,
  };
}
