/**
 * `/health` before the cluster version is decided: a member whose own checks pass but that
 * does not know the cluster version yet (a new cluster before its leader's first decision is
 * applied, a member added at runtime before it has caught up to that decision) is reported
 * unhealthy, so a client that found it healthy never reads an undecided or provisional
 * `etcdcluster` from `/version`. The member's own reasons (alarms, no leader) come first. Pure.
 */

/** One `/health` outcome (the 3.5 body carries the reason). */
export interface HealthAnswer {
  readonly healthy: boolean;
  readonly reason: string;
}

export const CLUSTER_VERSION_NOT_DECIDED = 'CLUSTER VERSION NOT DECIDED';

/** `answer`, or unhealthy when it is healthy but `clusterVersion` is not decided yet. */
export function gateOnClusterVersion(answer: HealthAnswer, clusterVersion: string | undefined): HealthAnswer {
  if (!answer.healthy || clusterVersion !== undefined) return answer;
  return { healthy: false, reason: CLUSTER_VERSION_NOT_DECIDED };
}
