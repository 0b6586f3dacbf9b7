/**
 * Labels and ownership shared by every object a KvstoreCluster owns. The selector labels
 * (name + instance) never change for a cluster (a StatefulSet's selector is immutable); the
 * version label is on pods only and follows the version the template runs.
 */
import type { IService } from 'kubernetes-models/v1/Service';
import { API_VERSION, KIND } from '../../api/types.js';
import type { KvstoreCluster } from '../../api/types.js';
import { namespaceOf } from './names.js';

type ObjectMeta = NonNullable<IService['metadata']>;
export type OwnerReference = NonNullable<ObjectMeta['ownerReferences']>[number];

export const LABEL_NAME = 'app.kubernetes.io/name';
export const LABEL_INSTANCE = 'app.kubernetes.io/instance';
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const LABEL_VERSION = 'app.kubernetes.io/version';
export const LABEL_COMPONENT = 'app.kubernetes.io/component';
export const APP_NAME = 'kvstore';
export const MANAGER = 'kvstore-operator';

/** Labels selecting the member pods of one cluster. */
export function selectorLabels(cluster: KvstoreCluster): Record<string, string> {
  return { [LABEL_NAME]: APP_NAME, [LABEL_INSTANCE]: cluster.metadata.name };
}

/** Labels of every owned object. */
export function clusterLabels(cluster: KvstoreCluster): Record<string, string> {
  return { ...selectorLabels(cluster), [LABEL_MANAGED_BY]: MANAGER };
}

/** Labels of a member pod running `version`. */
export function memberLabels(cluster: KvstoreCluster, version: string): Record<string, string> {
  return { ...clusterLabels(cluster), [LABEL_COMPONENT]: 'member', [LABEL_VERSION]: version };
}

/**
 * The controller reference to the cluster (Kubernetes garbage-collects owned objects with it and
 * will not delete the cluster before them in foreground deletion). None when the uid is unknown
 * (a cluster not read from the API server, e.g. local mode).
 */
export function ownerReferences(cluster: KvstoreCluster): OwnerReference[] {
  const uid = cluster.metadata.uid;
  if (uid === undefined || uid === '') return [];
  return [{ apiVersion: API_VERSION, kind: KIND, name: cluster.metadata.name, uid, controller: true, blockOwnerDeletion: true }];
}

/** metadata of an owned object `name`. */
export function ownedMeta(cluster: KvstoreCluster, name: string, labels: Record<string, string> = clusterLabels(cluster)): ObjectMeta {
  const refs = ownerReferences(cluster);
  return { name, namespace: namespaceOf(cluster), labels, ...(refs.length > 0 ? { ownerReferences: refs } : {}) };
}
