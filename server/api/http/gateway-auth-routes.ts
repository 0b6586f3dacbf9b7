/**
 * The Auth routes of the JSON gateway (ETCD-FACTS §4.1): `/auth/enable`, `/auth/disable`,
 * `/auth/status` (3.5), `/auth/authenticate`, `/auth/user/{add,get,list,delete,changepw,grant,
 * revoke}`, `/auth/role/{add,get,list,delete,grant,revoke}` → the Auth service. Without an auth
 * service every route answers Unimplemented, as before.
 */
import * as pb from '../../../proto/gen/etcd/rpc.js';
import type { Result } from '../../errors/domain-error.js';
import type { AuthService, Services } from '../services.js';
import * as rq from './gateway-auth-request-schemas.js';
import { decodeJsonText, type JsonMessageFns, type RequestCodec, type RequestFns } from './json-decode.js';
import type { MessageSchema } from './jsonpb-schema.js';
import type { UnaryRoute } from './gateway-routes.js';

const AUTH = '/etcdserverpb.Auth/';

/** A request's field table with its generated codec. */
const c = <T>(schema: MessageSchema, fns: RequestFns<T>): RequestCodec<T> => ({ schema, fns });

function route<Req, Res>(
  path: string,
  method: string,
  request: RequestCodec<Req>,
  response: JsonMessageFns<Res>,
  call: (auth: AuthService, req: Req) => Promise<Result<Res>>,
): UnaryRoute {
  const grpcMethod = `${AUTH}${method}`;
  return {
    path,
    grpcMethod,
    async run(services: Services, body: string) {
      if (services.auth === undefined) return { kind: 'domain', error: { kind: 'Unimplemented', method: grpcMethod } };
      const decoded = decodeJsonText(request, body);
      if (!decoded.ok) return { kind: 'status', status: decoded.status };
      const result = await call(services.auth, decoded.value);
      return result.ok ? { kind: 'ok', json: response.toJSON(result.value) } : { kind: 'domain', error: result.error };
    },
  };
}

export const AUTH_ROUTES: readonly UnaryRoute[] = [
  route('/auth/enable', 'AuthEnable', c(rq.AuthEnableRequest, pb.AuthEnableRequest), pb.AuthEnableResponse, (a, r) => a.authEnable(r)),
  route('/auth/disable', 'AuthDisable', c(rq.AuthDisableRequest, pb.AuthDisableRequest), pb.AuthDisableResponse, (a, r) => a.authDisable(r)),
  route('/auth/status', 'AuthStatus', c(rq.AuthStatusRequest, pb.AuthStatusRequest), pb.AuthStatusResponse, (a, r) => a.authStatus(r)),
  route('/auth/authenticate', 'Authenticate', c(rq.AuthenticateRequest, pb.AuthenticateRequest), pb.AuthenticateResponse, (a, r) => a.authenticate(r)),
  route('/auth/user/add', 'UserAdd', c(rq.AuthUserAddRequest, pb.AuthUserAddRequest), pb.AuthUserAddResponse, (a, r) => a.userAdd(r)),
  route('/auth/user/get', 'UserGet', c(rq.AuthUserGetRequest, pb.AuthUserGetRequest), pb.AuthUserGetResponse, (a, r) => a.userGet(r)),
  route('/auth/user/list', 'UserList', c(rq.AuthUserListRequest, pb.AuthUserListRequest), pb.AuthUserListResponse, (a, r) => a.userList(r)),
  route('/auth/user/delete', 'UserDelete', c(rq.AuthUserDeleteRequest, pb.AuthUserDeleteRequest), pb.AuthUserDeleteResponse, (a, r) => a.userDelete(r)),
  route('/auth/user/changepw', 'UserChangePassword', c(rq.AuthUserChangePasswordRequest, pb.AuthUserChangePasswordRequest), pb.AuthUserChangePasswordResponse, (a, r) =>
    a.userChangePassword(r),
  ),
  route('/auth/user/grant', 'UserGrantRole', c(rq.AuthUserGrantRoleRequest, pb.AuthUserGrantRoleRequest), pb.AuthUserGrantRoleResponse, (a, r) => a.userGrantRole(r)),
  route('/auth/user/revoke', 'UserRevokeRole', c(rq.AuthUserRevokeRoleRequest, pb.AuthUserRevokeRoleRequest), pb.AuthUserRevokeRoleResponse, (a, r) => a.userRevokeRole(r)),
  route('/auth/role/add', 'RoleAdd', c(rq.AuthRoleAddRequest, pb.AuthRoleAddRequest), pb.AuthRoleAddResponse, (a, r) => a.roleAdd(r)),
  route('/auth/role/get', 'RoleGet', c(rq.AuthRoleGetRequest, pb.AuthRoleGetRequest), pb.AuthRoleGetResponse, (a, r) => a.roleGet(r)),
  route('/auth/role/list', 'RoleList', c(rq.AuthRoleListRequest, pb.AuthRoleListRequest), pb.AuthRoleListResponse, (a, r) => a.roleList(r)),
  route('/auth/role/delete', 'RoleDelete', c(rq.AuthRoleDeleteRequest, pb.AuthRoleDeleteRequest), pb.AuthRoleDeleteResponse, (a, r) => a.roleDelete(r)),
  route('/auth/role/grant', 'RoleGrantPermission', c(rq.AuthRoleGrantPermissionRequest, pb.AuthRoleGrantPermissionRequest), pb.AuthRoleGrantPermissionResponse, (a, r) =>
    a.roleGrantPermission(r),
  ),
  route('/auth/role/revoke', 'RoleRevokePermission', c(rq.AuthRoleRevokePermissionRequest, pb.AuthRoleRevokePermissionRequest), pb.AuthRoleRevokePermissionResponse, (a, r) =>
    a.roleRevokePermission(r),
  ),
];
