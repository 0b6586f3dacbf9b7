/**
 * Cluster RPCs for a single-member cluster: MemberList answers with this member;
 * membership changes arrive with replication. Cluster headers carry no revision.
 */
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { fail, ok, type Result } from '../../errors/domain-error.js';
import type { ClusterService } from '../services.js';
import type { ServiceContext } from './context.js';

export function createClusterService(ctx: ServiceContext): ClusterService {
  const header = (): pb.ResponseHeader => ({ ...ctx.member.header(0n) });
  const self = (): pb.Member => ({
    ID: ctx.member.memberId,
    name: ctx.name,
    peerURLs: [...ctx.peerUrls],
    clientURLs: [...ctx.clientUrls],
    isLearner: false,
  });
  const unimplemented = <T>(method: string): Promise<Result<T>> => Promise.resolve(fail({ kind: 'Unimplemented', method }));
  return {
    memberList: async () => ok({ header: header(), members: [self()] }),
    memberAdd: () => unimplemented('MemberAdd'),
    memberRemove: () => unimplemented('MemberRemove'),
    memberUpdate: () => unimplemented('MemberUpdate'),
    memberPromote: () => unimplemented('MemberPromote'),
  };
}
