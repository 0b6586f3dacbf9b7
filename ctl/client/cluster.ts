/**
 * The Cluster API: member list, add (voter or learner), remove, update peer URLs, promote.
 * Add and update check the peer URLs first (peer-urls.ts) and fail with BadRequest.
 */
import {
  ClusterService,
  type MemberAddResponse,
  type MemberListResponse,
  type MemberPromoteResponse,
  type MemberRemoveResponse,
  type MemberUpdateResponse,
} from '../../proto/gen/etcd/rpc.js';
import { badRequest } from './errors.js';
import type { CallOptions, Invoker } from './invoker.js';
import { peerUrlError } from './peer-urls.js';
import type { Result } from './result.js';

export interface Cluster {
  memberList(opts?: CallOptions): Promise<Result<MemberListResponse>>;
  memberAdd(peerURLs: readonly string[], opts?: { readonly isLearner?: boolean } & CallOptions): Promise<Result<MemberAddResponse>>;
  memberRemove(id: bigint, opts?: CallOptions): Promise<Result<MemberRemoveResponse>>;
  memberUpdate(id: bigint, peerURLs: readonly string[], opts?: CallOptions): Promise<Result<MemberUpdateResponse>>;
  memberPromote(id: bigint, opts?: CallOptions): Promise<Result<MemberPromoteResponse>>;
}

export function makeCluster(inv: Invoker): Cluster {
  return {
    memberList: (opts = {}) => inv.unary(ClusterService.memberList, { linearizable: false }, 'repeatable', opts),
    memberAdd: (peerURLs, opts = {}) => {
      const bad = peerUrlError(peerURLs);
      if (bad !== undefined) return Promise.resolve({ ok: false, error: badRequest(bad) });
      return inv.unary(ClusterService.memberAdd, { peerURLs: [...peerURLs], isLearner: opts.isLearner ?? false }, 'mutable', opts);
    },
    memberRemove: (id, opts = {}) => inv.unary(ClusterService.memberRemove, { ID: id }, 'mutable', opts),
    memberUpdate: (id, peerURLs, opts = {}) => {
      const bad = peerUrlError(peerURLs);
      if (bad !== undefined) return Promise.resolve({ ok: false, error: badRequest(bad) });
      return inv.unary(ClusterService.memberUpdate, { ID: id, peerURLs: [...peerURLs] }, 'mutable', opts);
    },
    memberPromote: (id, opts = {}) => inv.unary(ClusterService.memberPromote, { ID: id }, 'mutable', opts),
  };
}
