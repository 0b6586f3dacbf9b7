/**
 * The restore rule of reconcile (before the plain create): a cluster with `spec.restoreFrom`
 * and no owned objects is created from the snapshot, or not at all. Pure.
 *
 * - It applies while no objects exist and no restore completed (`status.restore.restoredAt`):
 *   a restore recorded but never completed (the objects were never made) is planned again.
 * - The snapshot is checked first (decide.ts): refused → nothing is created, phase Pending,
 *   RestoreBlocked True with the reason, Progressing False, a Warning `RestoreFailed` the first
 *   time this reason refuses; being checked → wait.
 * - Accepted → the create of membership/create.ts with `restore` on its EnsureObjects (every
 *   founding member's empty data dir is restored from the file before it first starts), events
 *   ClusterCreating + RestoreStarted, and `status.restore` {source, file, sha256, revision, startedAt}
 *   (the engine writes that status BEFORE the EnsureObjects, so a restarted operator knows).
 */
import { createStep } from '../membership/create.js';
import type { PlanContext } from '../context.js';
import { carried, normal, verdict, warning, type Step } from '../step.js';
import { decideRestore } from './decide.js';
import { sourceText } from './source.js';

export const RESTORE_WAIT_SECONDS = 5;
export const RESTORE_REFUSED_REQUEUE_SECONDS = 30;

/** Whether the previous status shows RestoreBlocked True for `reason`. */
export function alreadyRestoreBlocked(ctx: PlanContext, reason: string): boolean {
  return ctx.prev?.conditions.some((c) => c.type === 'RestoreBlocked' && c.status === 'True' && c.reason === reason) ?? false;
}

export function restoreStep(ctx: PlanContext): Step | undefined {
  const from = ctx.spec.restoreFrom;
  if (from === undefined || ctx.observed.objectsExist || ctx.prev?.restore?.restoredAt !== undefined) return undefined;
  const source = sourceText(from, ctx.namespace);
  const d = decideRestore(ctx.spec, ctx.observed.restoreCheck);
  if (d.kind === 'wait') {
    return {
      actions: [],
      events: [],
      ...carried(ctx),
      phase: 'Pending',
      progressing: verdict('True', 'CheckingSnapshot', d.message),
      restoreBlocked: verdict('Unknown', 'CheckingSnapshot', d.message),
      requeueAfterSeconds: RESTORE_WAIT_SECONDS,
    };
  }
  if (d.kind === 'refuse') {
    const message = `restore from ${source} refused: ${d.message}`;
    return {
      actions: [],
      events: alreadyRestoreBlocked(ctx, d.reason) ? [] : [warning('RestoreFailed', message)],
      ...carried(ctx),
      phase: 'Pending',
      progressing: verdict('False', d.reason, message),
      restoreBlocked: verdict('True', d.reason, message),
      requeueAfterSeconds: RESTORE_REFUSED_REQUEUE_SECONDS,
    };
  }
  const create = createStep(ctx);
  if (!create.actions.some((a) => a.kind === 'EnsureObjects')) return create;
  const f = d.facts;
  const started = `restoring ${ctx.spec.size} members from ${f.file} (revision ${f.revision}, sha256 ${f.sha256.slice(0, 12)}…) before they first start`;
  return {
    ...create,
    actions: create.actions.map((a) => (a.kind === 'EnsureObjects' ? { ...a, restore: { file: f.file, sha256: f.sha256 } } : a)),
    events: [...create.events, normal('RestoreStarted', started)],
    restore: { source, file: f.file, sha256: f.sha256, revision: f.revision, startedAt: ctx.now },
    restoreBlocked: verdict('False', 'Restoring', started),
  };
}
