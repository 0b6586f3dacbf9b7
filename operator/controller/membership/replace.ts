/**
 * Replacing a failed member, conservatively. A voting member is failed when
 * - its data is gone (reason `DataLost`): the platform reports its data lost (`dataLost`), or it
 *   answers with a member id other than the one the membership holds for its slot (it started
 *   again from an empty data directory as another member) — acted on at once;
 * - it stays unhealthy (reason `Unhealthy`): not ready (unreachable, not running, /health false
 *   or no linearizable read) for at least memberHealthTimeoutSeconds — by its own
 *   status.members[].unhealthySince, and never sooner than Degraded has been True that long (a
 *   slot missing from status.members, e.g. a deleted pod, has only the latter clock).
 * It is removed from the membership (RemoveMember, event MemberReplacing, Warning, naming the
 * reason) only when every guard holds:
 * - no upgrade or rollback under way;
 * - it is the ONLY failed slot (two failed members are never replaced automatically: that needs a
 *   person — restore from a snapshot);
 * - at least 3 voting members and no learner pending, so the others (all ready, exactly one
 *   leader among them, the failed member not claiming leadership) form a quorum before and after
 *   the removal.
 * The next passes re-add its slot as a learner with an empty data directory (membership/scale.ts:
 * AddLearner + ResetMember, MemberReplaced) and promote it when caught up (MemberPromoted). Pure.
 */
import type { ClusterMember, ObservedMember } from '../model.js';
import { isSlotOf, leadersOf, memberReady, type PlanContext } from '../context.js';
import { carried, verdict, warning, type Step } from '../step.js';
import { secondsBetween } from '../time.js';
import { isActive } from '../upgrade/planner.js';

export type ReplaceReason = 'DataLost' | 'Unhealthy';

/** Why a slot is failed, or undefined when it is not. */
export interface Failure {
  readonly slot: ObservedMember;
  readonly reason: ReplaceReason;
  readonly why: string;
}

/** The failure of slot `m` given the membership `cm` (its entry, if any, is a voting member). */
export function failureOf(m: ObservedMember, cm: readonly ClusterMember[]): Failure | undefined {
  const entry = cm.find((c) => isSlotOf(m, c));
  if (m.dataLost === true) return { slot: m, reason: 'DataLost', why: `the data of ${m.name} is gone (its data directory or claim is not the one it ran with)` };
  const id = m.probe?.memberId ?? '';
  if (entry !== undefined && id !== '' && /^[0-9a-f]{16}$/.test(id) && id !== entry.id) {
    return { slot: m, reason: 'DataLost', why: `${m.name} answers as member ${id} but the membership holds ${entry.id} for it (it started again without its data)` };
  }
  if (!memberReady(m)) {
    const state = !m.exists ? 'does not exist' : !m.running ? 'is not running' : m.probe === undefined ? 'is unreachable' : 'is not healthy';
    return { slot: m, reason: 'Unhealthy', why: `${m.name} ${state}` };
  }
  return undefined;
}

export function planReplace(ctx: PlanContext): Step | undefined {
  const cm = ctx.observed.clusterMembers;
  if (cm === undefined || isActive(ctx.prev?.upgrade)) return undefined;
  const voting = cm.filter((c) => !c.isLearner);
  if (voting.length !== cm.length || voting.length < 3) return undefined;
  const failed = ctx.slots.flatMap((m) => failureOf(m, cm) ?? []);
  const failure = failed[0];
  if (failed.length !== 1 || failure === undefined) return undefined;
  const victim = failure.slot;
  const member = voting.find((c) => isSlotOf(victim, c));
  if (member === undefined) return undefined;
  if (failure.reason === 'Unhealthy') {
    const degraded = ctx.prev?.conditions.find((c) => c.type === 'Degraded' && c.status === 'True');
    const since = ctx.prev?.members?.find((s) => s.name === victim.name)?.unhealthySince;
    const timeout = ctx.spec.upgrade.memberHealthTimeoutSeconds;
    if (degraded === undefined || secondsBetween(degraded.lastTransitionTime, ctx.now) < timeout) return undefined;
    if (since !== undefined && secondsBetween(since, ctx.now) < timeout) return undefined;
  }
  const others = ctx.slots.filter((m) => m.name !== victim.name);
  const othersVoting = others.filter((m) => voting.some((c) => isSlotOf(m, c)));
  if (othersVoting.length !== voting.length - 1 || !others.every(memberReady) || leadersOf(others).length !== 1 || victim.probe?.isLeader === true) return undefined;
  const after = failure.reason === 'Unhealthy' ? ` for more than ${ctx.spec.upgrade.memberHealthTimeoutSeconds}s` : '';
  const message = `${failure.why}${after} (reason ${failure.reason}): removing it from the membership; it is re-added as a learner with an empty data directory next`;
  return {
    actions: [{ kind: 'RemoveMember', memberId: member.id, name: victim.name }],
    events: [warning('MemberReplacing', message)],
    ...carried(ctx),
    ...(failure.reason === 'DataLost' ? { degraded: verdict('True', 'MemberDataLost', failure.why) } : {}),
    phase: 'Scaling',
    progressing: verdict('True', 'ReplacingMember', message),
    requeueAfterSeconds: 5,
  };
}
