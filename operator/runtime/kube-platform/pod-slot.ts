/**
 * A member slot as the pods show it (pure): the pod of ordinal `i` is `<cluster>-<i>`; it
 * exists while the API server holds it (terminating included); it runs while its phase is
 * Running and it is not being deleted; its version is its kvstore container's image tag
 * (`kvstore/kvstore:3.5.0` → `3.5.0`). URLs are the stable pod DNS names (names.ts), the same
 * for every incarnation of the pod.
 */
import type { KvstoreCluster } from '../../api/types.js';
import { CONTAINER_NAME, memberClientURL, memberName, memberPeerURL } from '../../controller/builders/names.js';
import type { PlatformSlot } from '../../controller/ports.js';
import type { KubeObject } from '../kube/types.js';

/** The pod fields read here. */
export interface PodView extends KubeObject {
  readonly spec?: { readonly containers?: readonly { readonly name: string; readonly image?: string }[] };
  readonly status?: { readonly phase?: string };
}

/** `3.5.0` from `repo/kvstore:3.5.0` or `…:v3.5.0`; '' without a version tag. */
export function versionOfImage(image: string | undefined): string {
  if (image === undefined) return '';
  const last = image.slice(image.lastIndexOf('/') + 1);
  const colon = last.indexOf(':');
  if (colon < 0) return '';
  const tag = last.slice(colon + 1).split('@')[0] ?? '';
  return /^v?\d+\.\d+\.\d+$/.test(tag) ? tag.replace(/^v/, '') : '';
}

/** The version a pod runs (its kvstore container's image tag). */
export function podVersion(pod: PodView): string {
  const containers = pod.spec?.containers ?? [];
  const c = containers.find((x) => x.name === CONTAINER_NAME) ?? containers[0];
  return versionOfImage(c?.image);
}

export function podRunning(pod: PodView): boolean {
  return pod.metadata.deletionTimestamp === undefined && pod.status?.phase === 'Running';
}

/** Slots 0 … count-1, from the cluster's pods (by name). */
export function slotsOf(cluster: KvstoreCluster, pods: readonly PodView[], count: number): PlatformSlot[] {
  const byName = new Map(pods.map((p) => [p.metadata.name, p]));
  return Array.from({ length: count }, (_, ordinal) => {
    const name = memberName(cluster, ordinal);
    const pod = byName.get(name);
    const running = pod !== undefined && podRunning(pod);
    return {
      name,
      ordinal,
      exists: pod !== undefined,
      running,
      runVersion: pod === undefined ? '' : podVersion(pod),
      clientURL: memberClientURL(cluster, name),
      peerURL: memberPeerURL(cluster, name),
    };
  });
}

/** Highest ordinal + 1 among pods named `<cluster>-<n>` (0 when none). */
export function podCount(cluster: KvstoreCluster, pods: readonly PodView[]): number {
  const prefix = `${cluster.metadata.name}-`;
  let n = 0;
  for (const p of pods) {
    const rest = p.metadata.name.slice(prefix.length);
    if (p.metadata.name.startsWith(prefix) && /^\d+$/.test(rest)) n = Math.max(n, Number(rest) + 1);
  }
  return n;
}
