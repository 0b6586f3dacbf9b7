/**
 * A member joining an existing cluster (--initial-cluster-state=existing, no data yet) takes
 * its identity from the cluster, as added with MemberAdd: it asks the other members' peer
 * `/members` for the cluster id (header X-Etcd-Cluster-ID) and the member whose peer URLs are
 * its own --initial-advertise-peer-urls.
 */
import { getPeerJson, stringField } from '../peer/peer-get.js';
import type { PeerDialTls } from '../peer/peer-request.js';
import type { ServerConfig } from '../config/types.js';
import { parseId } from '../config/index.js';
import { majorMinor } from '../clusterversion/versions.js';
import type { MemberRecord } from '../membership/membership.js';

export interface ClusterIdentity {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  /**
   * The other members as the cluster lists them (joining only), with their real ids: a member
   * re-added under a new id (replaced) is not the one --initial-cluster's names derive.
   */
  readonly others?: readonly MemberRecord[];
}

async function fetchMembers(url: string, timeoutMs: number, tls: PeerDialTls): Promise<{ clusterId: string | undefined; members: MemberRecord[] } | undefined> {
  const doc = await getPeerJson(url, '/members', timeoutMs, tls);
  if (doc === undefined || !Array.isArray(doc.body)) return undefined;
  const header = doc.headers['x-etcd-cluster-id'];
  const members = (doc.body as { id: string; name?: string; peerURLs?: string[]; clientURLs?: string[]; isLearner?: boolean }[]).map((m) => ({
    id: BigInt(m.id),
    name: m.name ?? '',
    peerURLs: m.peerURLs ?? [],
    clientURLs: m.clientURLs ?? [],
    isLearner: m.isLearner === true,
  }));
  return { clusterId: typeof header === 'string' ? header : undefined, members };
}

/** Asks the other initial members until one answers; undefined when none does within `deadlineMs`. */
export async function discoverIdentity(config: ServerConfig, deadlineMs: number, tls: PeerDialTls): Promise<ClusterIdentity | undefined> {
  const mine = new Set(config.initialAdvertisePeerUrls);
  const urls = config.initialCluster.filter((m) => m.name !== config.name).flatMap((m) => m.peerUrls);
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    for (const url of urls) {
      const got = await fetchMembers(url, 1000, tls);
      const clusterId = got?.clusterId === undefined ? undefined : parseId(got.clusterId);
      const self = got?.members.find((m) => m.peerURLs.some((u) => mine.has(u)));
      if (clusterId !== undefined && self) return { memberId: self.id, clusterId, others: got!.members.filter((m) => m.id !== self.id) };
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return undefined;
}

/**
 * Whether member `memberId` has already started once in the cluster the other initial members
 * form (it is listed there with client URLs, which a member publishes once it serves): a member
 * of a new cluster with no data dir must then not bootstrap again — its data dir was lost, and
 * it would rejoin as the same voter having forgotten what it acknowledged. The first member that
 * answers decides (1 s each); none answering (a cluster starting up) means no.
 */
export async function isMemberBootstrapped(config: ServerConfig, memberId: bigint, tls: PeerDialTls): Promise<boolean> {
  const urls = config.initialCluster.filter((m) => m.name !== config.name).flatMap((m) => m.peerUrls);
  for (const url of urls) {
    const doc = await getPeerJson(url, '/members', 1000, tls);
    if (doc === undefined || !Array.isArray(doc.body)) continue;
    const self = (doc.body as { id: string; clientURLs?: string[] }[]).find((m) => BigInt(m.id) === memberId);
    return self !== undefined && (self.clientURLs?.length ?? 0) > 0;
  }
  return false;
}

/** The cluster version (major.minor) the other initial members report on their peer /version, if any does. */
export async function clusterVersionOfPeers(config: ServerConfig, tls: PeerDialTls): Promise<string | undefined> {
  const urls = config.initialCluster.filter((m) => m.name !== config.name).flatMap((m) => m.peerUrls);
  for (const url of urls) {
    const reported = stringField((await getPeerJson(url, '/version', 1000, tls))?.body, 'etcdcluster');
    const v = reported === undefined ? undefined : majorMinor(reported);
    if (v !== undefined) return v;
  }
  return undefined;
}
