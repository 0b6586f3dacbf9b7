/**
 * Which KvstoreCluster a watched object concerns (pure), as the work-queue key
 * `<namespace>/<name>`: a cluster itself; a StatefulSet (or any object) through its controller
 * owner reference to a KvstoreCluster; a member pod through its instance label, when it also
 * carries the operator's managed-by label (the pod's owner is the StatefulSet, not the cluster).
 */
import { API_VERSION, KIND } from '../../api/types.js';
import { LABEL_INSTANCE, LABEL_MANAGED_BY, MANAGER } from '../../controller/builders/labels.js';
import type { KubeObject } from '../kube/types.js';

const key = (namespace: string | undefined, name: string): string => `${namespace ?? 'default'}/${name}`;

export function keyOfCluster(o: KubeObject): string {
  return key(o.metadata.namespace, o.metadata.name);
}

/** The owning cluster's key, or undefined for objects not owned by a KvstoreCluster. */
export function keyOfOwned(o: KubeObject): string | undefined {
  const owner = o.metadata.ownerReferences?.find((r) => r.controller === true && r.kind === KIND && r.apiVersion === API_VERSION);
  return owner === undefined ? undefined : key(o.metadata.namespace, owner.name);
}

export function keyOfMemberPod(o: KubeObject): string | undefined {
  const labels = o.metadata.labels ?? {};
  const instance = labels[LABEL_INSTANCE];
  return instance !== undefined && labels[LABEL_MANAGED_BY] === MANAGER ? key(o.metadata.namespace, instance) : undefined;
}

/** `ns/name` → its parts. */
export function splitKey(k: string): { readonly namespace: string; readonly name: string } {
  const slash = k.indexOf('/');
  return { namespace: k.slice(0, slash), name: k.slice(slash + 1) };
}
