/**
 * etcdserverpb.Auth adapter: every method a unary call to the auth service (checked by the
 * auth gate in unary.ts while auth is enabled). Without an auth service every method
 * answers Unimplemented.
 */
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { AuthService as AuthDef } from '../../../proto/gen/etcd/rpc.js';
import type { AuthService } from '../services.js';
import type { EdgeContext } from './context.js';
import { unary } from './unary.js';
import { unimplementedHandlers } from './unimplemented.js';

export function authHandlers(ctx: EdgeContext, auth: AuthService | undefined): UntypedServiceImplementation {
  if (auth === undefined) return unimplementedHandlers(ctx, AuthDef);
  return {
    authEnable: unary(ctx, AuthDef.authEnable, (r) => auth.authEnable(r)),
    authDisable: unary(ctx, AuthDef.authDisable, (r) => auth.authDisable(r)),
    authStatus: unary(ctx, AuthDef.authStatus, (r) => auth.authStatus(r)),
    authenticate: unary(ctx, AuthDef.authenticate, (r) => auth.authenticate(r)),
    userAdd: unary(ctx, AuthDef.userAdd, (r) => auth.userAdd(r)),
    userGet: unary(ctx, AuthDef.userGet, (r) => auth.userGet(r)),
    userList: unary(ctx, AuthDef.userList, (r) => auth.userList(r)),
    userDelete: unary(ctx, AuthDef.userDelete, (r) => auth.userDelete(r)),
    userChangePassword: unary(ctx, AuthDef.userChangePassword, (r) => auth.userChangePassword(r)),
    userGrantRole: unary(ctx, AuthDef.userGrantRole, (r) => auth.userGrantRole(r)),
    userRevokeRole: unary(ctx, AuthDef.userRevokeRole, (r) => auth.userRevokeRole(r)),
    roleAdd: unary(ctx, AuthDef.roleAdd, (r) => auth.roleAdd(r)),
    roleGet: unary(ctx, AuthDef.roleGet, (r) => auth.roleGet(r)),
    roleList: unary(ctx, AuthDef.roleList, (r) => auth.roleList(r)),
    roleDelete: unary(ctx, AuthDef.roleDelete, (r) => auth.roleDelete(r)),
    roleGrantPermission: unary(ctx, AuthDef.roleGrantPermission, (r) => auth.roleGrantPermission(r)),
    roleRevokePermission: unary(ctx, AuthDef.roleRevokePermission, (r) => auth.roleRevokePermission(r)),
  } satisfies Record<keyof typeof AuthDef, unknown>;
}
