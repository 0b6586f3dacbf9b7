/**
 * Replacing a failed member, conservatively. A voting member whose slot is unreachable (no probe)
 * while Degraded has been True for at least memberHealthTimeoutSeconds is removed from the
 * membership (MemberReplacing, Warning) — only when no upgrade is under way, exactly one member is
 * failed, and the remaining members are all ready with a leader (so the removal never costs
 * quorum). The next passes re-add its slot as a learner with an empty data directory
 * (membership/scale.ts, MemberReplaced) and promote it when caught up. Two failed members at once
 * are never replaced automatically: that needs a person (restore from a snapshot). Pure.
 */
import { isSlotOf, leadersOf, memberReady, type PlanContext } from '../context.js';
import { carried, verdict, warning, type Step } from '../step.js';
import { secondsBetween } from '../time.js';

export function planReplace(ctx: PlanContext): Step | undefined {
  const cm = ctx.observed.clusterMembers;
  if (cm === undefined) return undefined;
  const degraded = ctx.prev?.conditions.find((c) => c.type === 'Degraded' && c.status === 'True');
  if (degraded === undefined) return undefined;
  const timeout = ctx.spec.upgrade.memberHealthTimeoutSeconds;
  if (secondsBetween(degraded.lastTransitionTime, ctx.now) < timeout) return undefined;
  const failed = ctx.slots.filter((m) => m.probe === undefined);
  const victim = failed[0];
  if (failed.length !== 1 || victim === undefined) return undefined;
  const member = cm.find((c) => !c.isLearner && isSlotOf(victim, c));
  if (member === undefined) return undefined;
  const others = ctx.slots.filter((m) => m.name !== victim.name);
  if (!others.every(memberReady) || leadersOf(others).length !== 1) return undefined;
  const message = `${victim.name} has been unreachable for more than ${timeout}s: removing it from the membership; it is re-added as a learner with an empty data directory next`;
  return {
    actions: [{ kind: 'RemoveMember', memberId: member.id, name: victim.name }],
    events: [warning('MemberReplacing', message)],
    ...carried(ctx),
    phase: 'Scaling',
    progressing: verdict('True', 'ReplacingMember', message),
    requeueAfterSeconds: 5,
  };
}
