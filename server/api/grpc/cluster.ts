/**
 * etcdserverpb.Cluster adapter: five unary calls, each straight to the cluster service.
 */
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { ClusterService as ClusterDef } from '../../../proto/gen/etcd/rpc.js';
import type { ClusterService } from '../services.js';
import type { EdgeContext } from './context.js';
import { unary } from './unary.js';

export function clusterHandlers(ctx: EdgeContext, cluster: ClusterService): UntypedServiceImplementation {
  return {
    memberAdd: unary(ctx, ClusterDef.memberAdd, (r) => cluster.memberAdd(r)),
    memberRemove: unary(ctx, ClusterDef.memberRemove, (r) => cluster.memberRemove(r)),
    memberUpdate: unary(ctx, ClusterDef.memberUpdate, (r) => cluster.memberUpdate(r)),
    memberList: unary(ctx, ClusterDef.memberList, (r) => cluster.memberList(r)),
    memberPromote: unary(ctx, ClusterDef.memberPromote, (r) => cluster.memberPromote(r)),
  } satisfies Record<keyof typeof ClusterDef, unknown>;
}
