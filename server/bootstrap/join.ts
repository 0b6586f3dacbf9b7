/**
 * A member joining an existing cluster (--initial-cluster-state=existing, no data yet) takes
 * its identity from the cluster, as added with MemberAdd: it asks the other members' peer
 * `/members` for the cluster id (header X-Etcd-Cluster-ID) and the member whose peer URLs are
 * its own --initial-advertise-peer-urls.
 */
import { request } from 'node:http';
import type { ServerConfig } from '../config/types.js';
import { parseId } from '../config/index.js';
import { majorMinor } from '../clusterversion/versions.js';

export interface ClusterIdentity {
  readonly memberId: bigint;
  readonly clusterId: bigint;
}

interface PeerMember {
  readonly id: bigint;
  readonly peerURLs: readonly string[];
}

function fetchMembers(url: string, timeoutMs: number): Promise<{ clusterId: string | undefined; members: PeerMember[] } | undefined> {
  return new Promise((resolve) => {
    const req = request(new URL('/members', url), { timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(undefined);
        try {
          // Ids are exact 64-bit decimals: keep them as text before parsing.
          const text = Buffer.concat(chunks).toString('utf8').replace(/"id":(\d+)/g, '"id":"$1"');
          const raw = JSON.parse(text) as { id: string; peerURLs: string[] }[];
          const header = res.headers['x-etcd-cluster-id'];
          resolve({ clusterId: typeof header === 'string' ? header : undefined, members: raw.map((m) => ({ id: BigInt(m.id), peerURLs: m.peerURLs })) });
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/** Asks the other initial members until one answers; undefined when none does within `deadlineMs`. */
export async function discoverIdentity(config: ServerConfig, deadlineMs: number): Promise<ClusterIdentity | undefined> {
  const mine = new Set(config.initialAdvertisePeerUrls);
  const urls = config.initialCluster.filter((m) => m.name !== config.name).flatMap((m) => m.peerUrls);
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    for (const url of urls) {
      const got = await fetchMembers(url, 1000);
      const clusterId = got?.clusterId === undefined ? undefined : parseId(got.clusterId);
      const self = got?.members.find((m) => m.peerURLs.some((u) => mine.has(u)));
      if (clusterId !== undefined && self) return { memberId: self.id, clusterId };
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return undefined;
}

/** The cluster version (major.minor) the other initial members report on their peer /version, if any does. */
export async function clusterVersionOfPeers(config: ServerConfig): Promise<string | undefined> {
  const urls = config.initialCluster.filter((m) => m.name !== config.name).flatMap((m) => m.peerUrls);
  for (const url of urls) {
    const v = await new Promise<string | undefined>((resolve) => {
      const req = request(new URL('/version', url), { timeout: 1000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { etcdcluster?: unknown };
            resolve(typeof body.etcdcluster === 'string' ? majorMinor(body.etcdcluster) : undefined);
          } catch {
            resolve(undefined);
          }
        });
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(undefined));
      req.end();
    });
    if (v !== undefined) return v;
  }
  return undefined;
}
