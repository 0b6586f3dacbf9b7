/**
 * The steady state and the paused state. Steady: nothing to change; keep the template at the
 * version the members run, announce the end of creation once (ClusterCreated), re-observe every
 * STEADY_POLL_SECONDS (member health changes raise no platform event). Paused: observe and report
 * only — no actions, no events, Progressing False (Paused). Pure.
 */
import { memberVersion, type PlanContext } from './context.js';
import { carried, normal, verdict, type Step } from './step.js';

export const STEADY_POLL_SECONDS = 30;

export function steadyStep(ctx: PlanContext): Step {
  const versions = [...new Set(ctx.slots.map(memberVersion))];
  const running = versions.length === 1 ? versions[0] : undefined;
  const syncTemplate = running !== undefined && running !== '' && running === ctx.spec.version && ctx.observed.templateVersion !== running;
  const created = ctx.prev?.phase === 'Creating' || ctx.prev?.phase === 'Pending';
  return {
    actions: syncTemplate ? [{ kind: 'SetTemplateVersion', version: running }] : [],
    events: created ? [normal('ClusterCreated', `all ${ctx.spec.size} members are ready at ${ctx.spec.version}`)] : [],
    ...carried(ctx),
    progressing: verdict('False', 'Stable', `the cluster matches the spec (${ctx.spec.size} members at ${ctx.spec.version})`),
    requeueAfterSeconds: STEADY_POLL_SECONDS,
  };
}

export function pausedStep(ctx: PlanContext): Step {
  return {
    actions: [],
    events: [],
    ...carried(ctx),
    progressing: verdict('False', 'Paused', 'spec.paused is true: the operator observes and reports only'),
    requeueAfterSeconds: STEADY_POLL_SECONDS,
  };
}
