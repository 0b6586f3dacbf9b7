/**
 * The initial cluster as members with IDs, and the checks etcd makes when a member bootstraps
 * without a WAL (these do not run at config load, because a restarting member ignores
 * --initial-cluster): the local name must be in --initial-cluster, no peer URL may appear
 * twice, and for a new cluster the member's --initial-advertise-peer-urls must equal its URLs
 * in --initial-cluster. Messages are etcd's.
 */
import { clusterIdFor, memberIdFor } from './identity.js';
import type { InitialClusterMember, ServerConfig } from './types.js';

export interface InitialMember extends InitialClusterMember {
  readonly id: bigint;
}

/** Members of --initial-cluster with their IDs, in --initial-cluster order. */
export function initialMembers(config: Pick<ServerConfig, 'initialCluster' | 'initialClusterToken'>): readonly InitialMember[] {
  return config.initialCluster.map((m) => ({ ...m, id: memberIdFor(m.peerUrls, config.initialClusterToken) }));
}

/** Cluster ID of a new cluster bootstrapped from this configuration. */
export function initialClusterId(config: Pick<ServerConfig, 'initialCluster' | 'initialClusterToken'>): bigint {
  return clusterIdFor(initialMembers(config).map((m) => m.id));
}

/** Returns why this member cannot bootstrap from its configuration, or undefined when it can. */
export function verifyBootstrap(
  config: Pick<ServerConfig, 'name' | 'initialCluster' | 'initialClusterState' | 'initialAdvertisePeerUrls'>,
): string | undefined {
  const text = config.initialCluster.flatMap((m) => m.peerUrls.map((u) => `${m.name}=${u}`)).join(',');
  const local = config.initialCluster.find((m) => m.name === config.name);
  if (local === undefined) return `couldn't find local name ${JSON.stringify(config.name)} in the initial cluster configuration`;
  const all = config.initialCluster.flatMap((m) => m.peerUrls);
  if (new Set(all).size !== all.length) return `initial cluster ${text} has duplicate url`;
  if (config.initialClusterState !== 'new') return undefined;
  const advertised = [...config.initialAdvertisePeerUrls].sort();
  const missingFromAdvertise = local.peerUrls.filter((u) => !advertised.includes(u));
  if (missingFromAdvertise.length > 0) {
    const has = missingFromAdvertise.map((u) => `${config.name}=${u}`).join(',');
    return `--initial-cluster has ${has} but missing from --initial-advertise-peer-urls=${advertised.join(',')}`;
  }
  const missingFromCluster = advertised.filter((u) => !local.peerUrls.includes(u));
  if (missingFromCluster.length > 0) {
    return `--initial-advertise-peer-urls has ${missingFromCluster.join(',')} but missing from --initial-cluster=${text}`;
  }
  return undefined;
}
