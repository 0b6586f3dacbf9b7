/**
 * Every object a KvstoreCluster owns, in the order they are created (Services before the
 * StatefulSet: pods need their DNS names from the start).
 */
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { IService } from 'kubernetes-models/v1/Service';
import type { KvstoreCluster } from '../../api/types.js';
import { buildClientService } from './client-service.js';
import type { MemberTemplate } from './member-template.js';
import { buildPeerService } from './peer-service.js';
import { buildPodDisruptionBudget } from './pod-disruption-budget.js';
import { buildStatefulSet } from './stateful-set.js';

export type OwnedObject = IService | IStatefulSet | IPodDisruptionBudget;

export function buildOwnedObjects(cluster: KvstoreCluster, template: MemberTemplate): OwnedObject[] {
  return [
    buildPeerService(cluster),
    buildClientService(cluster),
    buildStatefulSet(cluster, template),
    buildPodDisruptionBudget(cluster, template.members),
  ];
}
