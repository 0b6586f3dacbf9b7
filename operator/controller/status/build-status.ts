/**
 * The status written after a pass: the observed part (members, readyMembers, clusterVersion),
 * the rule's decision (upgrade record, downgrade floor), the five conditions and the phase.
 *
 * Conditions: Available (a majority of the spec.size members ready), Progressing (the rule's),
 * Degraded (the rule's, else any member not ready or an alarm — the member in flight during an
 * upgrade is expected to be down and not counted), Upgrading (an upgrade or rollback under way),
 * UpgradeBlocked (the rule's). Phase, first that applies: Paused, UpgradeBlocked, Upgrading,
 * Creating/Scaling (the rule's), Degraded, Running. Pure.
 */
import type { KvstoreClusterStatus, Phase, UpgradeStatus } from '../../api/types.js';
import { memberGate } from '../upgrade/gates.js';
import { isActiveState } from '../upgrade/states.js';
import type { PlanContext } from '../context.js';
import { memberReady } from '../context.js';
import { verdict, type Step, type Verdict } from '../step.js';
import { mergeConditions } from './conditions.js';
import { clusterVersion, memberStatuses, readyMembers } from './members.js';

function available(ctx: PlanContext): Verdict {
  if (!ctx.observed.objectsExist) return verdict('False', 'NotCreated', 'the cluster objects do not exist yet');
  const ready = ctx.slots.filter(memberReady).length;
  const size = ctx.spec.size;
  if (ready > size / 2) return verdict('True', 'QuorumHealthy', `${ready} of ${size} members are healthy`);
  return verdict('False', 'QuorumLost', `${ready} of ${size} members are healthy; a majority (${Math.floor(size / 2) + 1}) is needed`);
}

function observedDegraded(ctx: PlanContext, step: Step): Verdict {
  if (step.phase === 'Creating') return verdict('False', 'Creating', 'the members are starting');
  if (step.phase === 'Pending') return verdict('False', 'NotCreated', 'no member was created');
  const inFlight = isActiveState(step.upgrade?.state) ? step.upgrade?.currentMember : undefined;
  const cm = ctx.observed.clusterMembers;
  // A slot that does not exist and is not a member yet is being added (scale up), not failed.
  const known = (name: string, exists: boolean): boolean => exists || cm === undefined || cm.some((c) => c.name === name);
  const problems = ctx.slots.filter((m) => m.name !== inFlight && known(m.name, m.exists)).flatMap((m) => {
    const g = memberGate(m);
    return g.ok || g.reason === 'LearnerPresent' ? [] : [g];
  });
  if (ctx.slots.length < ctx.spec.size && ctx.observed.objectsExist) {
    return verdict('True', 'MembersMissing', `${ctx.slots.length} of ${ctx.spec.size} member slots exist`);
  }
  const first = problems[0];
  if (first === undefined) return verdict('False', 'AllMembersHealthy', 'every member is healthy');
  return verdict('True', first.reason, problems.map((p) => p.message).join('; '));
}

function upgrading(up: UpgradeStatus | undefined): Verdict {
  if (up === undefined) return verdict('False', 'NoUpgrade', 'no upgrade has run');
  const what = `${up.from} → ${up.to}`;
  if (up.state === 'Blocked') return verdict('False', 'Blocked', `upgrade ${what} is blocked: ${up.reason ?? 'see UpgradeBlocked'}`);
  if (up.state === 'Completed') return verdict('False', 'Completed', `upgrade ${what} completed at ${up.finishedAt ?? ''}`);
  if (up.state === 'RolledBack') return verdict('False', 'RolledBack', `upgrade ${what} was rolled back at ${up.finishedAt ?? ''}`);
  const inFlight = up.currentMember === undefined ? '' : `, member in flight ${up.currentMember}`;
  return verdict('True', up.state, `upgrade ${what}: ${up.state}, done: ${up.membersDone.join(', ') || 'none'}${inFlight}`);
}

function phaseOf(paused: boolean, step: Step, degraded: Verdict): Phase {
  if (paused) return 'Paused';
  if (step.blocked !== undefined) return 'UpgradeBlocked';
  if (isActiveState(step.upgrade?.state)) return 'Upgrading';
  if (step.phase !== undefined) return step.phase;
  if (degraded.status === 'True') return 'Degraded';
  return 'Running';
}

export function buildStatus(ctx: PlanContext, step: Step): KvstoreClusterStatus {
  const degraded = step.degraded ?? observedDegraded(ctx, step);
  const blocked = step.blocked ?? verdict('False', 'NotBlocked', 'nothing blocks the cluster');
  const conditions = mergeConditions(
    ctx.prev?.conditions ?? [],
    { Available: available(ctx), Progressing: step.progressing, Degraded: degraded, Upgrading: upgrading(step.upgrade), UpgradeBlocked: blocked, RestoreBlocked: step.restoreBlocked },
    ctx.now,
    ctx.generation,
  );
  return {
    phase: phaseOf(ctx.spec.paused, step, degraded),
    observedGeneration: ctx.generation,
    clusterVersion: clusterVersion(ctx.observed),
    readyMembers: readyMembers(ctx.observed, ctx.spec.size),
    members: memberStatuses(ctx.observed, ctx.prev?.members, ctx.now),
    ...(step.upgrade === undefined ? {} : { upgrade: step.upgrade }),
    ...(step.restore === undefined ? {} : { restore: step.restore }),
    ...(step.downgradeFloor === undefined ? {} : { downgradeFloor: step.downgradeFloor }),
    conditions,
  };
}
