/**
 * etcdserverpb.Auth adapter: registered so clients get a clear answer, but every method
 * is Unimplemented (code 12) until the auth store exists.
 */
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { AuthService } from '../../../proto/gen/etcd/rpc.js';
import type { EdgeContext } from './context.js';
import { unimplementedHandlers } from './unimplemented.js';

export function authHandlers(ctx: EdgeContext): UntypedServiceImplementation {
  return unimplementedHandlers(ctx, AuthService);
}
