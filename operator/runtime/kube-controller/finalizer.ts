/**
 * The snapshots finalizer (`kvstore.io/snapshots`) on a KvstoreCluster. Added before the first
 * pass acts on a cluster; on deletion the operator keeps the cluster's pre-upgrade snapshot
 * files on its volume (they are the way back after a deleted cluster; remove them by hand) and
 * removes the finalizer, after which the API server deletes the cluster and garbage-collects
 * the owned objects. Both writes are merge patches of `metadata.finalizers` carrying the read
 * resourceVersion, so a concurrent change of the list answers 409 and is retried by the caller
 * (the work queue) instead of being overwritten.
 */
import { API_VERSION, KIND, SNAPSHOTS_FINALIZER, type KvstoreCluster } from '../../api/types.js';
import type { KubeClient, KubeObject, KubeResult } from '../kube/types.js';

function patchFinalizers<T extends KubeObject>(kube: KubeClient, o: KubeObject, finalizers: readonly string[]): Promise<KubeResult<T>> {
  const ref = { apiVersion: API_VERSION, kind: KIND, namespace: o.metadata.namespace ?? 'default', name: o.metadata.name };
  return kube.mergePatch<T>(ref, { metadata: { finalizers, resourceVersion: o.metadata.resourceVersion } });
}

export function hasFinalizer(o: KubeObject): boolean {
  return (o.metadata.finalizers ?? []).includes(SNAPSHOTS_FINALIZER);
}

/** Adds the finalizer; answers the updated object. */
export function addFinalizer<T extends KubeObject>(kube: KubeClient, o: T): Promise<KubeResult<T>> {
  return patchFinalizers<T>(kube, o, [...(o.metadata.finalizers ?? []), SNAPSHOTS_FINALIZER]);
}

/** Removes the finalizer (the snapshot files are kept). */
export function removeFinalizer(kube: KubeClient, o: KubeObject | KvstoreCluster): Promise<KubeResult<KubeObject>> {
  return patchFinalizers(kube, o as KubeObject, (o.metadata.finalizers ?? []).filter((f) => f !== SNAPSHOTS_FINALIZER));
}
