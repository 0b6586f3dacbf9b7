/**
 * Turning the rolling direction around: a rollback (spec.version back to `from` while the cluster
 * is mixed), or resuming the upgrade after a rollback began. A member in flight that is not yet
 * healthy on the new target is restarted at once (it is the one this change broke, so no gate);
 * a rollback before any member was touched ends at once (RolledBack). Pure.
 */
import type { UpgradeStatus } from '../../api/types.js';
import type { PlannedEvent } from '../model.js';
import { memberReadyAt, memberVersion, slotByName, type PlanContext } from '../context.js';
import type { Step } from '../step.js';
import { rolledBackStep } from './finish.js';
import { rollStep, startMember, type Direction } from './roll.js';

/** Turn the rolling direction around (rollback, or resuming an upgrade after a rollback began). */
export function redirect(ctx: PlanContext, up: UpgradeStatus, dir: Direction, events: readonly PlannedEvent[]): Step {
  const target = dir === 'forward' ? up.to : up.from;
  const state = dir === 'forward' ? 'UpgradingMembers' : 'RollingBack';
  const touched = up.currentMember !== undefined || ctx.slots.some((m) => memberVersion(m) === up.to);
  if (dir === 'back' && !touched) return rolledBackStep(ctx, up, events);
  const inFlight = up.currentMember === undefined ? undefined : slotByName(ctx, up.currentMember);
  if (inFlight !== undefined && !memberReadyAt(inFlight, target)) return startMember(ctx, { ...up, state }, dir, inFlight, events);
  const { waitUntil: _w, reason: _r, ...rest } = up;
  return rollStep(ctx, { ...rest, state }, dir, events);
}
