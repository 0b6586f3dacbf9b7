/**
 * Names, ports, paths and DNS of the objects a KvstoreCluster owns. Member `i` of cluster `demo`
 * in namespace `ns` is pod `demo-i`, reachable (ready or not) through the headless peer Service
 * as `demo-i.demo-peer.ns.svc`; its URLs depend on nothing else (the scheme on spec.tls, which is
 * immutable), so a replaced pod gets them back.
 */
import type { KvstoreCluster } from '../../api/types.js';

export const CLIENT_PORT = 2379;
export const PEER_PORT = 2380;
/** Name of the member container (and of the data volume claim template: `data`). */
export const CONTAINER_NAME = 'kvstore';
export const DATA_VOLUME = 'data';
/** Where the member PVC is mounted; the data dir is a directory inside it (not the mount root,
 * which may hold `lost+found`). */
export const DATA_MOUNT_PATH = '/var/lib/kvstore';
export const DATA_DIR = `${DATA_MOUNT_PATH}/data`;

export function namespaceOf(cluster: KvstoreCluster): string {
  return cluster.metadata.namespace ?? 'default';
}

/** The headless Service giving every member a stable DNS name (`<name>-peer`). */
export function peerServiceName(cluster: KvstoreCluster): string {
  return `${cluster.metadata.name}-peer`;
}

/** The Service clients use (`<name>-client`). */
export function clientServiceName(cluster: KvstoreCluster): string {
  return `${cluster.metadata.name}-client`;
}

/** StatefulSet and PodDisruptionBudget name: the cluster's. */
export function statefulSetName(cluster: KvstoreCluster): string {
  return cluster.metadata.name;
}

/** Pod (and member) name of ordinal `i`. */
export function memberName(cluster: KvstoreCluster, ordinal: number): string {
  return `${cluster.metadata.name}-${ordinal}`;
}

/** Stable DNS name of a member (pod name or a `$(POD_NAME)` reference). */
export function memberHost(cluster: KvstoreCluster, member: string): string {
  return `${member}.${peerServiceName(cluster)}.${namespaceOf(cluster)}.svc`;
}

/** `https` when spec.tls secures the peer listener, else `http`. */
export function peerScheme(cluster: KvstoreCluster): 'http' | 'https' {
  return cluster.spec.tls?.peer === undefined ? 'http' : 'https';
}

/** `https` when spec.tls secures the client listener, else `http`. */
export function clientScheme(cluster: KvstoreCluster): 'http' | 'https' {
  return cluster.spec.tls?.client === undefined ? 'http' : 'https';
}

export function memberPeerURL(cluster: KvstoreCluster, member: string): string {
  return `${peerScheme(cluster)}://${memberHost(cluster, member)}:${PEER_PORT}`;
}

export function memberClientURL(cluster: KvstoreCluster, member: string): string {
  return `${clientScheme(cluster)}://${memberHost(cluster, member)}:${CLIENT_PORT}`;
}

/** Where a TLS Secret is mounted in a member pod (`tls.crt`, `tls.key`, `ca.crt` inside). */
export const TLS_MOUNT_ROOT = '/etc/kvstore/tls';
/** Volume names of the mounted TLS Secrets. */
export const CLIENT_TLS_VOLUME = 'tls-client';
export const PEER_TLS_VOLUME = 'tls-peer';

/** `--initial-cluster-token`: the name plus the first 8 characters of the uid (when known), so a
 * cluster re-created under the same name never accepts the old one's members. */
export function clusterToken(cluster: KvstoreCluster): string {
  const uid = cluster.metadata.uid?.replace(/-/g, '').slice(0, 8);
  return uid ? `${cluster.metadata.name}-${uid}` : cluster.metadata.name;
}
