/**
 * reconcile(cluster, observed) → Plan: the operator's whole decision for one pass. Pure and
 * synchronous (no clock — observed.now —, no I/O). At most one membership or upgrade step per
 * pass. Rules, first that applies:
 *   paused → observe and report only;
 *   no owned objects → create (from spec.restoreFrom's snapshot, once checked: restore/plan-restore.ts);
 *   an upgrade / rollback under way (status.upgrade) → continue it (upgrade/planner.ts);
 *   creation not finished → wait;
 *   membership ≠ spec.size or a learner pending → one membership step (membership/scale.ts);
 *   spec.version ≠ the members' version → start, refuse or roll back (upgrade/new-change.ts);
 *   a member whose data is gone, or not ready for long → replace it (membership/replace.ts);
 *   else steady.
 * Then the backup planner (backup/planner.ts) records the last backup and, when one is due and the
 * rule above took no step, adds a TakeBackup (it never holds up the rule's step).
 * The status (status/build-status.ts) is always recomputed from the observation and the step;
 * restore/with-restore.ts adds the restore record, its completion and the RestoreBlocked condition.
 * `cluster` must be defaulted (operator/api defaults applied).
 */
import type { KvstoreCluster } from '../api/types.js';
import type { Observed, Plan } from './model.js';
import { makeContext, type PlanContext } from './context.js';
import type { Step } from './step.js';
import { pausedStep, steadyStep } from './steady.js';
import { createStep, creatingStep } from './membership/create.js';
import { planMembership } from './membership/scale.js';
import { planReplace } from './membership/replace.js';
import { isActive, planVersion } from './upgrade/planner.js';
import { buildStatus } from './status/build-status.js';
import { planBackup } from './backup/planner.js';
import { restoreStep } from './restore/plan-restore.js';
import { withRestore } from './restore/with-restore.js';

function decide(ctx: PlanContext): Step {
  if (ctx.spec.paused) return pausedStep(ctx);
  if (!ctx.observed.objectsExist) return restoreStep(ctx) ?? createStep(ctx);
  if (isActive(ctx.prev?.upgrade)) return planVersion(ctx) ?? steadyStep(ctx);
  return creatingStep(ctx) ?? planMembership(ctx) ?? planVersion(ctx) ?? planReplace(ctx) ?? steadyStep(ctx);
}

export function reconcile(cluster: KvstoreCluster, observed: Observed): Plan {
  const ctx = makeContext(cluster, observed);
  const step = withRestore(ctx, decide(ctx));
  const backup = planBackup(ctx, step);
  const built = buildStatus(ctx, step);
  const status = backup.status === undefined ? built : { ...built, backups: backup.status };
  const requeues = [step.requeueAfterSeconds, backup.requeueAfterSeconds].filter((r): r is number => r !== undefined);
  return {
    actions: [...step.actions, ...backup.actions],
    events: [...step.events, ...backup.events],
    status,
    ...(requeues.length === 0 ? {} : { requeueAfterSeconds: Math.min(...requeues) }),
  };
}
