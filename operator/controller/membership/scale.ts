/**
 * Membership towards spec.size, one member per pass, with a leader and every voting member ready:
 * - a learner exists: start its slot if it has none (EnsureObjects), promote it once its revision
 *   is within CATCH_UP_REVISIONS of the leader's (MemberPromoted);
 * - fewer voting members than spec.size: the lowest missing slot is added as a learner — a new
 *   slot (beyond the existing ones) gets AddLearner + EnsureObjects(replicas + 1) (MemberAdded); a
 *   slot that exists or had data (inside the current range) gets AddLearner + ResetMember so it
 *   rejoins empty (MemberReplaced, naming the reason: DataLost when the platform reports its data
 *   gone, Unhealthy when it is not ready — membership/replace.ts removed it —, else Removed);
 * - more voting members than spec.size: RemoveMember of the highest ordinal, then EnsureObjects
 *   with fewer replicas (MemberRemoved);
 * - slots beyond spec.size that are no longer members: EnsureObjects(spec.size).
 * New members get the template version (the version the members run), not a pending spec.version.
 * Pure.
 */
import type { ClusterMember, ObservedMember } from '../model.js';
import { isSlotOf, leadersOf, memberReady, type PlanContext } from '../context.js';
import { carried, normal, verdict, type Step } from '../step.js';
import { CATCH_UP_REVISIONS } from '../upgrade/gates.js';

export const SCALE_POLL_SECONDS = 5;

function scaling(ctx: PlanContext, reason: string, message: string, rest: Partial<Step> = {}): Step {
  return { actions: [], events: [], ...carried(ctx), phase: 'Scaling', progressing: verdict('True', reason, message), requeueAfterSeconds: SCALE_POLL_SECONDS, ...rest };
}

export function planMembership(ctx: PlanContext): Step | undefined {
  const cm = ctx.observed.clusterMembers;
  if (cm === undefined) return undefined;
  const version = ctx.observed.templateVersion || ctx.spec.version;
  const all = [...ctx.observed.members].sort((a, b) => a.ordinal - b.ordinal);
  const existing = all.filter((m) => m.exists).length;
  const slotOf = (c: ClusterMember): ObservedMember | undefined => all.find((m) => isSlotOf(m, c));
  const voting = cm.filter((c) => !c.isLearner);
  const votingSlots = voting.flatMap((c) => slotOf(c) ?? []);
  const leader = leadersOf(votingSlots)[0];
  const learner = cm.find((c) => c.isLearner);

  if (learner !== undefined) {
    const slot = slotOf(learner);
    if (slot === undefined) return scaling(ctx, 'LearnerWithoutSlot', `learner ${learner.name || learner.id} matches no member slot`);
    if (!slot.exists) {
      return scaling(ctx, 'StartingLearner', `starting learner ${slot.name}`, { actions: [{ kind: 'EnsureObjects', version, replicas: Math.max(existing, slot.ordinal + 1) }] });
    }
    const leaderRev = leader?.probe?.revision;
    const rev = slot.probe?.revision;
    if (leaderRev === undefined || rev === undefined || rev < leaderRev - CATCH_UP_REVISIONS) {
      return scaling(ctx, 'LearnerCatchingUp', `learner ${slot.name} is at revision ${rev ?? 'unknown'}, the leader at ${leaderRev ?? 'unknown'}`);
    }
    const message = `learner ${slot.name} caught up (revision ${rev}): promoted to a voting member`;
    return scaling(ctx, 'PromotingLearner', message, { actions: [{ kind: 'PromoteLearner', memberId: learner.id }], events: [normal('MemberPromoted', message)] });
  }

  if (voting.length !== ctx.spec.size) {
    const notReady = votingSlots.filter((m) => !memberReady(m));
    if (leader === undefined || notReady.length > 0 || votingSlots.length !== voting.length) {
      const why = leader === undefined ? 'no leader' : `not ready: ${notReady.map((m) => m.name).join(', ') || 'a member without a slot'}`;
      return scaling(ctx, 'WaitingForHealthyCluster', `membership change to ${ctx.spec.size} members waits: ${why}`);
    }
  }

  if (voting.length < ctx.spec.size) {
    const missing = all.find((m) => m.ordinal < ctx.spec.size && !voting.some((c) => isSlotOf(m, c)));
    if (missing === undefined) return undefined;
    if (missing.exists || missing.ordinal < existing) {
      const reason = missing.dataLost === true ? 'DataLost' : memberReady(missing) ? 'Removed' : 'Unhealthy';
      const message = `${missing.name} is not a member any more (reason ${reason}): re-adding it as a learner with an empty data directory`;
      return scaling(ctx, 'ReplacingMember', message, {
        actions: [{ kind: 'AddLearner', name: missing.name, peerURL: missing.peerURL }, { kind: 'ResetMember', name: missing.name }],
        events: [normal('MemberReplaced', message)],
      });
    }
    const message = `adding ${missing.name} as a learner (${voting.length} → ${voting.length + 1} of ${ctx.spec.size})`;
    return scaling(ctx, 'AddingMember', message, {
      actions: [{ kind: 'AddLearner', name: missing.name, peerURL: missing.peerURL }, { kind: 'EnsureObjects', version, replicas: Math.max(existing, missing.ordinal + 1) }],
      events: [normal('MemberAdded', message)],
    });
  }

  if (voting.length > ctx.spec.size) {
    const victim = [...votingSlots].sort((a, b) => b.ordinal - a.ordinal)[0];
    const member = victim === undefined ? undefined : voting.find((c) => isSlotOf(victim, c));
    if (victim === undefined || member === undefined) return undefined;
    const message = `removing ${victim.name} (${voting.length} → ${voting.length - 1} of ${ctx.spec.size})`;
    return scaling(ctx, 'RemovingMember', message, {
      actions: [{ kind: 'RemoveMember', memberId: member.id, name: victim.name }, { kind: 'EnsureObjects', version, replicas: victim.ordinal }],
      events: [normal('MemberRemoved', message)],
    });
  }

  const extra = all.filter((m) => m.exists && m.ordinal >= ctx.spec.size);
  if (extra.length > 0) {
    return scaling(ctx, 'RemovingSlots', `stopping ${extra.map((m) => m.name).join(', ')} (no longer members)`, { actions: [{ kind: 'EnsureObjects', version, replicas: ctx.spec.size }] });
  }
  return undefined;
}
