/**
 * v3lockpb.Lock and v3electionpb.Election adapters: registered (ETCD-FACTS §0) but every
 * method is Unimplemented (code 12) for now.
 */
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { ElectionService } from '../../../proto/gen/etcd/election.js';
import { LockService } from '../../../proto/gen/etcd/lock.js';
import type { EdgeContext } from './context.js';
import { unimplementedHandlers } from './unimplemented.js';

export function lockHandlers(ctx: EdgeContext): UntypedServiceImplementation {
  return unimplementedHandlers(ctx, LockService);
}

export function electionHandlers(ctx: EdgeContext): UntypedServiceImplementation {
  return unimplementedHandlers(ctx, ElectionService);
}
