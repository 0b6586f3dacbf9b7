/**
 * Rolling the members one at a time towards a version: forward (the upgrade, `up.to`) or back
 * (the rollback, `up.from`). Per pass, in this order:
 * 1. a member in flight (`currentMember`) is awaited until it runs the target and is healthy
 *    (then MemberUpgraded / MemberRolledBack); past its deadline (`waitUntil`, set to now +
 *    memberHealthTimeoutSeconds when it was restarted) the upgrade is Blocked, Degraded; still
 *    healthy on the old version after a failed action or RESTART_RETRY_SECONDS, it is restarted
 *    again (MemberRestartRetried);
 * 2. forward only, after every member (the last one too, before Finalizing): the v2 wait
 *    (state WaitingV2 until `waitUntil`; a lowered upgrade.v2WaitSeconds shortens it to at most
 *    that long from the pass that sees it, V2WaitShortened);
 * 3. the gates; then the next member (followers by ordinal, the leader last) gets
 *    SetTemplateVersion (if needed) + RestartMember;
 * 4. no member left: forward → Finalizing, back → RolledBack.
 * `membersDone` lists the members running `up.to` that this upgrade restarted. Pure.
 */
import type { UpgradeStatus } from '../../api/types.js';
import type { Action, ObservedMember, PlannedEvent } from '../model.js';
import { memberReady, memberReadyAt, slotByName, type PlanContext } from '../context.js';
import { normal, verdict, warning, type Step } from '../step.js';
import { addSeconds, secondsBetween } from '../time.js';
import { checkGates } from './gates.js';
import { rollOrder } from './order.js';
import { v2WaitNeeded } from './v2-wait.js';
import { finalizeStep, rolledBackStep } from './finish.js';

export type Direction = 'forward' | 'back';

/** Re-observe this often while a member comes back or a gate is not met. */
export const MEMBER_POLL_SECONDS = 5;
/** Re-observe a member past its health deadline this often (it may still recover). */
export const BLOCKED_POLL_SECONDS = 30;
/** A member in flight still healthy on the old version this long after its restart was not
 * restarted (the action failed, or the platform brought it back unchanged): restart it again. */
export const RESTART_RETRY_SECONDS = 60;

const targetOf = (up: UpgradeStatus, dir: Direction): string => (dir === 'forward' ? up.to : up.from);
const runningState = (dir: Direction): UpgradeStatus['state'] => (dir === 'forward' ? 'UpgradingMembers' : 'RollingBack');

function step(ctx: PlanContext, up: UpgradeStatus, events: readonly PlannedEvent[], reason: string, message: string, requeue: number, actions: readonly Action[] = []): Step {
  return { actions, events, upgrade: up, downgradeFloor: ctx.prev?.downgradeFloor, progressing: verdict('True', reason, message), requeueAfterSeconds: requeue };
}

/** SetTemplateVersion (when the platform would not bring the member back at `target`) + RestartMember. */
export function restart(ctx: PlanContext, m: ObservedMember, target: string): readonly Action[] {
  const set: Action[] = ctx.observed.templateVersion === target ? [] : [{ kind: 'SetTemplateVersion', version: target }];
  return [...set, { kind: 'RestartMember', name: m.name }];
}

/** Restart `m` at the target now: the member-in-flight record, its deadline and its event. */
export function startMember(ctx: PlanContext, up: UpgradeStatus, dir: Direction, m: ObservedMember, events: readonly PlannedEvent[], again = false): Step {
  const target = targetOf(up, dir);
  const deadline = addSeconds(ctx.now, ctx.spec.upgrade.memberHealthTimeoutSeconds);
  const isLeader = m.probe?.isLeader === true;
  const what = `${m.name}${isLeader ? ' (the leader, last)' : ''}${again ? ` again (it still runs ${m.probe?.serverVersion ?? 'the old version'})` : ''}`;
  const reason = again ? 'MemberRestartRetried' : dir === 'forward' ? 'MemberUpgradeStarted' : 'MemberRollbackStarted';
  const message = `restarting ${what} at ${target}; it must be healthy on ${target} by ${deadline}`;
  const { reason: _r, ...rest } = up;
  const next: UpgradeStatus = { ...rest, state: runningState(dir), currentMember: m.name, waitUntil: deadline };
  return step(ctx, next, [...events, normal(reason, message)], dir === 'forward' ? 'UpgradingMember' : 'RollingBackMember', message, MEMBER_POLL_SECONDS, restart(ctx, m, target));
}

/** The member in flight answers, healthy, on another version than the target, and either the last
 * pass's actions failed or RESTART_RETRY_SECONDS passed since its restart: it was never restarted. */
function notRestarted(ctx: PlanContext, up: UpgradeStatus, m: ObservedMember | undefined, target: string): m is ObservedMember {
  if (m === undefined || !memberReady(m) || m.probe?.serverVersion === target) return false;
  const actionFailed = ctx.prev?.conditions.some((c) => c.type === 'Degraded' && c.status === 'True' && c.reason === 'ActionFailed') ?? false;
  if (actionFailed) return true;
  if (up.waitUntil === undefined) return false;
  const restartedAt = addSeconds(up.waitUntil, -ctx.spec.upgrade.memberHealthTimeoutSeconds);
  return secondsBetween(restartedAt, ctx.now) >= RESTART_RETRY_SECONDS;
}

function awaitMember(ctx: PlanContext, up: UpgradeStatus, dir: Direction, name: string, events: readonly PlannedEvent[]): Step {
  const target = targetOf(up, dir);
  const m = slotByName(ctx, name);
  if (notRestarted(ctx, up, m, target)) return startMember(ctx, up, dir, m, events, true);
  const deadline = up.waitUntil;
  if (deadline === undefined || secondsBetween(ctx.now, deadline) > 0) {
    const message = `waiting for ${name} to run ${target} and be healthy${deadline === undefined ? '' : ` (until ${deadline})`}`;
    return step(ctx, { ...up, state: runningState(dir) }, events, 'WaitingForMember', message, MEMBER_POLL_SECONDS);
  }
  const message = `${name} did not come back healthy on ${target} within ${ctx.spec.upgrade.memberHealthTimeoutSeconds}s; ` +
    (dir === 'forward' ? `the upgrade stops here (set spec.version back to ${up.from} to roll back)` : 'the rollback stops here');
  const newly = up.state !== 'Blocked';
  return {
    actions: [],
    events: newly ? [...events, warning('UpgradeBlocked', message)] : events,
    upgrade: { ...up, state: 'Blocked', reason: message },
    downgradeFloor: ctx.prev?.downgradeFloor,
    progressing: verdict('False', 'MemberHealthTimeout', message),
    blocked: verdict('True', 'MemberHealthTimeout', message),
    degraded: verdict('True', 'MemberHealthTimeout', message),
    requeueAfterSeconds: BLOCKED_POLL_SECONDS,
  };
}

/**
 * When a running v2 wait ends: as recorded, or sooner when upgrade.v2WaitSeconds was lowered
 * meanwhile — at most that many seconds after now (0 ends it now). Raising it does not extend it.
 */
function v2WaitEnd(ctx: PlanContext, recorded: string | undefined): string {
  if (recorded === undefined) return ctx.now;
  const cap = addSeconds(ctx.now, ctx.spec.upgrade.v2WaitSeconds);
  return secondsBetween(recorded, cap) >= 0 ? recorded : cap;
}

export function rollStep(ctx: PlanContext, upIn: UpgradeStatus, dir: Direction, eventsIn: readonly PlannedEvent[]): Step {
  const target = targetOf(upIn, dir);
  const events = [...eventsIn];
  let up = upIn;
  if (up.currentMember !== undefined) {
    const m = slotByName(ctx, up.currentMember);
    if (m === undefined || !memberReadyAt(m, target)) return awaitMember(ctx, up, dir, up.currentMember, events);
    events.push(normal(dir === 'forward' ? 'MemberUpgraded' : 'MemberRolledBack', `${m.name} runs ${target} and is healthy`));
    const others = up.membersDone.filter((n) => n !== m.name);
    const { currentMember: _c, waitUntil: _w, reason: _r, ...rest } = up;
    up = { ...rest, state: runningState(dir), membersDone: dir === 'forward' ? [...others, m.name] : others };
    if (dir === 'forward') {
      const v2 = v2WaitNeeded(ctx.slots, ctx.spec.upgrade.v2ThresholdBytes);
      if (v2.wait) {
        const seconds = ctx.spec.upgrade.v2WaitSeconds;
        const until = addSeconds(ctx.now, seconds);
        const message = `waiting ${seconds}s (until ${until}) after ${m.name}: ${v2.why}`;
        events.push(normal('V2Wait', message));
        return step(ctx, { ...up, state: 'WaitingV2', waitUntil: until }, events, 'V2Wait', message, seconds);
      }
    }
  }
  if (up.state === 'WaitingV2') {
    const until = v2WaitEnd(ctx, up.waitUntil);
    const left = secondsBetween(ctx.now, until);
    if (up.waitUntil !== undefined && until !== up.waitUntil) events.push(normal('V2WaitShortened', `upgrade.v2WaitSeconds is ${ctx.spec.upgrade.v2WaitSeconds}: the v2 wait now ends at ${until}`));
    if (left > 0) return step(ctx, { ...up, waitUntil: until }, events, 'V2Wait', `v2 wait until ${until}`, left);
    const { waitUntil: _w, ...rest } = up;
    up = { ...rest, state: 'UpgradingMembers' };
  }
  const todo = rollOrder(ctx.slots, target);
  const next = todo[0];
  if (next === undefined) return dir === 'forward' ? finalizeStep(ctx, up, events) : rolledBackStep(ctx, up, events);
  const previous = dir === 'forward' ? up.membersDone.at(-1) : undefined;
  const gate = checkGates(ctx, previous === undefined ? {} : { previous: { name: previous, version: target } });
  if (!gate.ok) {
    return step(ctx, { ...up, state: runningState(dir) }, events, gate.reason, `waiting before the next member: ${gate.message}`, MEMBER_POLL_SECONDS);
  }
  return startMember(ctx, up, dir, next, events);
}
