/**
 * The PodDisruptionBudget (policy/v1) of the member pods: voluntary disruptions (node drains)
 * take at most one member at a time, so 3, 5 and 7 member clusters keep their quorum. A single
 * member cannot keep quorum through any disruption: there the budget is `minAvailable: 0`, so it
 * states the fact instead of blocking node drains forever.
 */
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { KvstoreCluster } from '../../api/types.js';
import { ownedMeta, selectorLabels } from './labels.js';
import { statefulSetName } from './names.js';

/** `members`: how many members the cluster has now (defaults to spec.size). */
export function buildPodDisruptionBudget(cluster: KvstoreCluster, members: number = cluster.spec.size): IPodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: ownedMeta(cluster, statefulSetName(cluster)),
    spec: {
      selector: { matchLabels: selectorLabels(cluster) },
      ...(members <= 1 ? { minAvailable: 0 } : { maxUnavailable: 1 }),
    },
  };
}
