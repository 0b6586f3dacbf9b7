/**
 * Refusals that mean "not yet" rather than "failed": a membership change the cluster turns
 * down with `etcdserver: unhealthy cluster` (strict reconfiguration: the member that handles it
 * has not been connected to every voting member for the last 5 s, e.g. right after a restart
 * or a promotion). Such a pass is not degraded and announces nothing: its status says it waits
 * (Progressing, reason WaitingForHealthyCluster) and the change is planned again on the next pass.
 */
import type { KvstoreClusterStatus } from '../api/types.js';
import type { ExecuteResult } from './execute.js';

const MEMBERSHIP_ACTIONS = new Set(['AddLearner', 'PromoteLearner', 'RemoveMember']);
const UNHEALTHY = 'etcdserver: unhealthy cluster';

/** Whether the pass's failure is a deferral: the first action, a membership change, refused as unhealthy. */
export function isDeferredRefusal(result: ExecuteResult): boolean {
  const f = result.failure;
  return f !== undefined && result.completed === 0 && MEMBERSHIP_ACTIONS.has(f.action.kind) && f.error.includes(UNHEALTHY);
}

/** The plan's status with Progressing saying the change waits (transition time kept when the reason is unchanged). */
export function waitingStatus(status: KvstoreClusterStatus, action: string, now: string): KvstoreClusterStatus {
  const reason = 'WaitingForHealthyCluster';
  const prev = status.conditions.find((c) => c.type === 'Progressing');
  const message = `${action} waits: the cluster refused it for now (${UNHEALTHY}; its members must have been connected to each other for 5 s)`;
  const cond = {
    ...(prev ?? { type: 'Progressing' as const }),
    status: 'True' as const,
    reason,
    message,
    lastTransitionTime: prev?.status === 'True' && prev.reason === reason ? prev.lastTransitionTime : now,
  };
  return { ...status, conditions: [...status.conditions.filter((c) => c.type !== 'Progressing'), cond] };
}
