/**
 * The health gate checked before an upgrade starts and before every member is touched:
 * every member reachable, `/health` true and a linearizable read answered, no alarms, exactly one
 * leader, no learner (no membership change half-done), the membership as large as spec.size, and
 * the member touched last running the expected version and caught up (its revision within
 * CATCH_UP_REVISIONS of the highest any member reports in the same observation). Pure.
 */
import type { ObservedMember } from '../model.js';
import { leadersOf, maxRevision, type PlanContext } from '../context.js';

/** Revisions a member may trail the others by and still count as caught up (observations of
 * different members are not simultaneous, so an exact match would fail under steady writes). */
export const CATCH_UP_REVISIONS = 100;

export type GateResult = { readonly ok: true } | { readonly ok: false; readonly reason: string; readonly message: string };

export interface GateOptions {
  /** The member touched last and the version it must run now. */
  readonly previous?: { readonly name: string; readonly version: string };
}

const pass: GateResult = { ok: true };

function fail(reason: string, message: string): GateResult {
  return { ok: false, reason, message };
}

export function memberGate(m: ObservedMember): GateResult {
  if (!m.exists || !m.running) return fail('MemberNotRunning', `member ${m.name} is not running`);
  if (m.probe === undefined) return fail('MemberUnreachable', `member ${m.name} cannot be reached`);
  if (!m.probe.healthy) return fail('MemberUnhealthy', `member ${m.name}: /health is not true`);
  if (!m.probe.linearizableRead) return fail('MemberUnhealthy', `member ${m.name} did not answer a linearizable read`);
  if (m.probe.alarms.length > 0) return fail('AlarmActive', `member ${m.name} reports alarm ${m.probe.alarms.join(', ')}`);
  if (m.probe.isLearner) return fail('LearnerPresent', `member ${m.name} is a learner (a membership change is in progress)`);
  return pass;
}

/** Whether `m` may count as caught up with the others of `slots`. */
export function caughtUp(m: ObservedMember, slots: readonly ObservedMember[]): boolean {
  if (m.probe === undefined) return false;
  const others = slots.filter((o) => o.name !== m.name);
  return m.probe.revision >= maxRevision(others) - CATCH_UP_REVISIONS;
}

export function checkGates(ctx: PlanContext, opts: GateOptions = {}): GateResult {
  if (ctx.slots.length < ctx.spec.size) return fail('MembersMissing', `${ctx.slots.length} of ${ctx.spec.size} members exist`);
  for (const m of ctx.slots) {
    const r = memberGate(m);
    if (!r.ok) return r;
  }
  const leaders = leadersOf(ctx.slots);
  if (leaders.length !== 1) {
    return fail('NoSingleLeader', leaders.length === 0 ? 'no member reports being the leader' : `${leaders.length} members report being the leader (${leaders.map((m) => m.name).join(', ')})`);
  }
  const cm = ctx.observed.clusterMembers;
  if (cm !== undefined) {
    const learners = cm.filter((c) => c.isLearner);
    if (learners.length > 0) return fail('LearnerPresent', `learner ${learners.map((c) => c.name || c.id).join(', ')} is not promoted yet`);
    if (cm.length !== ctx.spec.size) return fail('MembershipMismatch', `the cluster has ${cm.length} members, spec.size is ${ctx.spec.size}`);
  }
  const prev = opts.previous;
  if (prev !== undefined) {
    const m = ctx.slots.find((s) => s.name === prev.name);
    if (m?.probe !== undefined) {
      if (m.probe.serverVersion !== prev.version) {
        return fail('PreviousMemberNotUpgraded', `member ${m.name} reports ${m.probe.serverVersion || 'no version'}, expected ${prev.version}`);
      }
      if (!caughtUp(m, ctx.slots)) {
        return fail('PreviousMemberBehind', `member ${m.name} is at revision ${m.probe.revision}, behind the others (${maxRevision(ctx.slots)})`);
      }
    }
  }
  return pass;
}
