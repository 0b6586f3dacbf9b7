/**
 * Creating a cluster: with no owned objects, one EnsureObjects for spec.size members at
 * spec.version (phase Creating, event ClusterCreating); until every member is ready the phase
 * stays Creating (no other rule acts), then ClusterCreated once. Pure.
 */
import { memberReady, type PlanContext } from '../context.js';
import { carried, normal, verdict, type Step } from '../step.js';
import { refusal } from '../upgrade/refusal.js';
import { parseVersion } from '../upgrade/version.js';
import { SUPPORTED_MINORS } from '../upgrade/path.js';

export const CREATE_POLL_SECONDS = 5;

export function createStep(ctx: PlanContext): Step {
  const v = parseVersion(ctx.spec.version);
  if (v === undefined || v.major !== 3 || !(SUPPORTED_MINORS as readonly number[]).includes(v.minor)) {
    return refusal(ctx, 'UnsupportedVersion', `spec.version ${JSON.stringify(ctx.spec.version)} is not a supported version (3.2.x … 3.5.x); nothing was created`);
  }
  const message = `creating ${ctx.spec.size} members at ${ctx.spec.version}`;
  return {
    actions: [{ kind: 'EnsureObjects', version: ctx.spec.version, replicas: ctx.spec.size }],
    events: [normal('ClusterCreating', message)],
    ...carried(ctx),
    phase: 'Creating',
    progressing: verdict('True', 'Creating', message),
    requeueAfterSeconds: CREATE_POLL_SECONDS,
  };
}

/** While the first start is not finished: wait (Creating); undefined once every member is ready. */
export function creatingStep(ctx: PlanContext): Step | undefined {
  const creating = ctx.prev === undefined || ctx.prev.phase === 'Creating' || ctx.prev.phase === 'Pending';
  if (!creating) return undefined;
  const ready = ctx.slots.filter(memberReady).length;
  if (ready === ctx.spec.size && ctx.slots.length === ctx.spec.size) return undefined;
  return {
    actions: [],
    events: [],
    ...carried(ctx),
    phase: 'Creating',
    progressing: verdict('True', 'Creating', `${ready} of ${ctx.spec.size} members are ready`),
    requeueAfterSeconds: CREATE_POLL_SECONDS,
  };
}
