/**
 * Rows shared by the simple (comma-joined) and table formats of member and endpoint lists.
 */
import type { MemberListResponse } from '../../proto/gen/etcd/rpc.js';
import { hexId } from './go-format.js';
import { humanizeBytes } from './humanize.js';
import type { EpHashKV, EpHealth, EpStatus } from './printer.js';

export const MEMBER_LIST_HEADER = ['ID', 'Status', 'Name', 'Peer Addrs', 'Client Addrs', 'Is Learner'] as const;

export function memberListRows(r: MemberListResponse): string[][] {
  return r.members.map((m) => [hexId(m.ID), m.name === '' ? 'unstarted' : 'started', m.name, m.peerURLs.join(','), m.clientURLs.join(','), String(m.isLearner)]);
}

export const ENDPOINT_HEALTH_HEADER = ['endpoint', 'health', 'took', 'error'] as const;

export function endpointHealthRows(hs: readonly EpHealth[]): string[][] {
  return hs.map((h) => [h.ep, String(h.health), h.took, h.error]);
}

export const ENDPOINT_STATUS_HEADER = ['endpoint', 'ID', 'version', 'db size', 'is leader', 'is learner', 'raft term', 'raft index', 'raft applied index', 'errors'] as const;

export function endpointStatusRows(ss: readonly EpStatus[]): string[][] {
  return ss.map(({ ep, resp }) => {
    const memberId = resp.header?.memberId ?? 0n;
    return [
      ep,
      hexId(memberId),
      resp.version,
      humanizeBytes(resp.dbSize),
      String(resp.leader === memberId),
      String(resp.isLearner),
      String(resp.raftTerm),
      String(resp.raftIndex),
      String(resp.raftAppliedIndex),
      resp.errors.join(', '),
    ];
  });
}

export const HASHKV_HEADER = ['endpoint', 'hash'] as const;

export function hashKVRows(hs: readonly EpHashKV[]): string[][] {
  return hs.map((h) => [h.ep, String(h.resp.hash)]);
}
