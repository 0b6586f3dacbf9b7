/**
 * The kvstore command line of a member pod. Every value is the same for every pod except the
 * `$(POD_NAME)` references Kubernetes expands from the container's env, so a replaced pod starts
 * with its own name, URLs and the cluster's initial settings (ignored by kvstore once its data dir
 * holds a WAL). The data dir comes from KVSTORE_DATA_DIR (a flag given too would shadow it, which
 * is fatal from 3.4). spec.options become flags the pod's version line accepts: options a line
 * predates are left out (validation refuses them for spec.version; the template may run an older
 * version during a rollback), and logLevel before 3.4 becomes `--debug` for `debug`. With spec.tls
 * the secured listeners get https URLs and the certificate flags of member-tls.ts.
 */
import type { KvstoreCluster, ServerOptions } from '../../api/types.js';
import type { MemberTemplate } from './member-template.js';
import { tlsFlags } from './member-tls.js';
import { clientScheme, clusterToken, CLIENT_PORT, memberName, memberPeerURL, PEER_PORT, memberClientURL, peerScheme } from './names.js';

/** The env var holding the pod name (downward API), referenced as `$(POD_NAME)`. */
export const POD_NAME_ENV = 'POD_NAME';
const SELF = `$(${POD_NAME_ENV})`;

function minorOf(version: string): number {
  return Number(version.split('.')[1]);
}

/** `--flag=value` for the options set, in a fixed order, as `version` accepts them. */
export function optionFlags(options: ServerOptions, version: string): string[] {
  const minor = minorOf(version);
  const out: string[] = [];
  if (options.autoCompactionMode !== undefined && minor >= 3) out.push(`--auto-compaction-mode=${options.autoCompactionMode}`);
  if (options.autoCompactionRetention !== undefined) out.push(`--auto-compaction-retention=${options.autoCompactionRetention}`);
  if (options.quotaBackendBytes !== undefined) out.push(`--quota-backend-bytes=${options.quotaBackendBytes}`);
  if (options.maxRequestBytes !== undefined && minor >= 3) out.push(`--max-request-bytes=${options.maxRequestBytes}`);
  if (options.enableV2 !== undefined && minor >= 3) out.push(`--enable-v2=${options.enableV2}`);
  if (options.logLevel !== undefined) {
    if (minor >= 4) out.push(`--log-level=${options.logLevel}`);
    else if (options.logLevel === 'debug') out.push('--debug=true');
  }
  return out;
}

/** `demo-0=http(s)://demo-0.demo-peer.ns.svc:2380,…` for ordinals 0 … members-1. */
export function initialCluster(cluster: KvstoreCluster, members: number): string {
  return Array.from({ length: members }, (_, i) => memberName(cluster, i))
    .map((m) => `${m}=${memberPeerURL(cluster, m)}`)
    .join(',');
}

export function memberArgs(cluster: KvstoreCluster, template: MemberTemplate): string[] {
  return [
    `--name=${SELF}`,
    `--initial-advertise-peer-urls=${memberPeerURL(cluster, SELF)}`,
    `--listen-peer-urls=${peerScheme(cluster)}://0.0.0.0:${PEER_PORT}`,
    `--listen-client-urls=${clientScheme(cluster)}://0.0.0.0:${CLIENT_PORT}`,
    `--advertise-client-urls=${memberClientURL(cluster, SELF)}`,
    `--initial-cluster=${initialCluster(cluster, template.members)}`,
    `--initial-cluster-token=${clusterToken(cluster)}`,
    `--initial-cluster-state=${template.initialClusterState ?? 'new'}`,
    ...tlsFlags(cluster),
    ...optionFlags(cluster.spec.options, template.version),
  ];
}
