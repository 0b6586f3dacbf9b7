/**
 * What every pass says about restores, whichever rule decided it (applied by reconcile.ts after
 * the rule). Pure.
 *
 * - `status.restore` is carried from the previous status when the rule sets none.
 * - Completion: a restore not yet completed whose members are all ready (every spec.size slot)
 *   gets `restoredAt` = now and the event RestoreCompleted, once.
 * - The RestoreBlocked condition (only for clusters with spec.restoreFrom or status.restore):
 *   the rule's verdict when it gave one; else, with a restore recorded, False `Restored` /
 *   `Restoring` — or True `RestoreSourceChanged` when spec.restoreFrom now names another source
 *   (a restore happens at creation only: nothing is done); without one, True `ClusterExists` when
 *   spec.restoreFrom was added to a cluster that already exists (nothing is done). Those two
 *   notices also get one Warning event `RestoreIgnored` when they appear.
 */
import type { RestoreStatus } from '../../api/types.js';
import { memberReady, type PlanContext } from '../context.js';
import { normal, verdict, warning, type Step, type Verdict } from '../step.js';
import { alreadyRestoreBlocked } from './plan-restore.js';
import { sourceText } from './source.js';

function completed(ctx: PlanContext, rec: RestoreStatus | undefined): boolean {
  return rec !== undefined && rec.restoredAt === undefined && ctx.observed.objectsExist && ctx.slots.length === ctx.spec.size && ctx.slots.every(memberReady);
}

function condition(ctx: PlanContext, rec: RestoreStatus | undefined): Verdict | undefined {
  const from = ctx.spec.restoreFrom;
  if (rec !== undefined) {
    const wanted = from === undefined ? undefined : sourceText(from, ctx.namespace);
    if (wanted !== undefined && wanted !== rec.source) {
      return verdict('True', 'RestoreSourceChanged', `spec.restoreFrom names ${wanted}, but this cluster was restored from ${rec.source} at ${rec.startedAt}; a restore happens only when a cluster is created: nothing is done (remove spec.restoreFrom or set it back)`);
    }
    const what = `from ${rec.file} (revision ${rec.revision})`;
    return rec.restoredAt === undefined ? verdict('False', 'Restoring', `restoring ${what}`) : verdict('False', 'Restored', `restored ${what} at ${rec.restoredAt}`);
  }
  if (from === undefined) return undefined;
  if (ctx.observed.objectsExist) {
    return verdict('True', 'ClusterExists', `spec.restoreFrom (${sourceText(from, ctx.namespace)}) is read only when a cluster is created; this cluster already exists and was not restored: nothing is done (to restore, create a new cluster)`);
  }
  return undefined;
}

export function withRestore(ctx: PlanContext, step: Step): Step {
  let rec = step.restore ?? ctx.prev?.restore;
  const events = [...step.events];
  if (completed(ctx, rec) && rec !== undefined) {
    rec = { ...rec, restoredAt: ctx.now };
    events.push(normal('RestoreCompleted', `all ${ctx.spec.size} members restored from ${rec.file} are ready (revision ${rec.revision})`));
  }
  const cond = step.restoreBlocked ?? condition(ctx, rec);
  if (step.restoreBlocked === undefined && cond?.status === 'True' && !alreadyRestoreBlocked(ctx, cond.reason)) events.push(warning('RestoreIgnored', cond.message));
  return {
    ...step,
    events,
    ...(rec === undefined ? {} : { restore: rec }),
    ...(cond === undefined ? {} : { restoreBlocked: cond }),
  };
}
