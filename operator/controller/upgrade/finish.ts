/**
 * The two ends of a rolling change. Finalizing: every member runs the target; wait until every
 * member's /version reports the target's line as the cluster version, then record the downgrade
 * floor, mark Completed, prune old snapshots. RolledBack: every member runs `from` again. Pure.
 */
import type { UpgradeStatus } from '../../api/types.js';
import type { PlannedEvent } from '../model.js';
import type { PlanContext } from '../context.js';
import { normal, verdict, type Step } from '../step.js';
import { compareVersions, minorOf, parseMinor, parseVersion } from './version.js';

export const FINALIZE_REQUEUE_SECONDS = 5;
/** After the end of a change, re-observe as a steady cluster does. */
export const SETTLED_REQUEUE_SECONDS = 30;

/** Drop the fields that only mean something while a member is in flight or blocked. */
export function settled(up: UpgradeStatus): UpgradeStatus {
  const { currentMember: _c, waitUntil: _w, reason: _r, ...rest } = up;
  return rest;
}

function higherFloor(a: string | undefined, b: string): string {
  const av = a === undefined ? undefined : parseMinor(a);
  const bv = parseMinor(b);
  if (av === undefined || bv === undefined) return b;
  return compareVersions(av, bv) >= 0 ? (a as string) : b;
}

export function finalizeStep(ctx: PlanContext, up: UpgradeStatus, events: readonly PlannedEvent[]): Step {
  const to = parseVersion(up.to);
  const line = to === undefined ? up.to : minorOf(to);
  const lagging = ctx.slots.filter((m) => {
    const cv = m.probe === undefined ? undefined : parseMinor(m.probe.clusterVersion);
    return cv === undefined || minorOf(cv) !== line;
  });
  if (lagging.length > 0) {
    const seen = lagging.map((m) => `${m.name}: ${m.probe?.clusterVersion || 'unknown'}`).join(', ');
    const message = `every member runs ${up.to}; waiting for every /version to report cluster version ${line}.0 (${seen})`;
    return {
      actions: [],
      events,
      upgrade: { ...settled(up), state: 'Finalizing' },
      downgradeFloor: ctx.prev?.downgradeFloor,
      progressing: verdict('True', 'Finalizing', message),
      requeueAfterSeconds: FINALIZE_REQUEUE_SECONDS,
    };
  }
  const floor = higherFloor(ctx.prev?.downgradeFloor, line);
  const message = `upgrade ${up.from} → ${up.to} completed: all ${ctx.slots.length} members run ${up.to}, cluster version ${line}.0; downgrade floor ${floor}`;
  return {
    actions: [{ kind: 'PruneSnapshots', keep: ctx.spec.upgrade.snapshot.keep }],
    events: [...events, normal('UpgradeCompleted', message)],
    upgrade: { ...settled(up), state: 'Completed', finishedAt: ctx.now },
    downgradeFloor: floor,
    progressing: verdict('False', 'UpgradeCompleted', message),
    requeueAfterSeconds: SETTLED_REQUEUE_SECONDS,
  };
}

export function rolledBackStep(ctx: PlanContext, up: UpgradeStatus, events: readonly PlannedEvent[]): Step {
  const message = `rolled back: all ${ctx.slots.length} members run ${up.from} again (upgrade to ${up.to} abandoned)`;
  return {
    actions: ctx.observed.templateVersion === up.from ? [] : [{ kind: 'SetTemplateVersion', version: up.from }],
    events: [...events, normal('RollbackCompleted', message)],
    upgrade: { ...settled(up), state: 'RolledBack', membersDone: [], finishedAt: ctx.now },
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('False', 'RolledBack', message),
    requeueAfterSeconds: SETTLED_REQUEUE_SECONDS,
  };
}
