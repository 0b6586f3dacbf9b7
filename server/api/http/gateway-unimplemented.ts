/**
 * Gateway paths of services kvstore does not serve through the gateway yet (auth, lock,
 * election, 3.5 downgrade): each answers the gRPC status Unimplemented for its method
 * (HTTP 501), rendered through the injected error table like every other failure.
 */
const AUTH = '/etcdserverpb.Auth/';

export interface UnimplementedRoute {
  readonly path: string;
  readonly grpcMethod: string;
}

const r = (path: string, grpcMethod: string): UnimplementedRoute => ({ path, grpcMethod });

export const UNIMPLEMENTED_ROUTES: readonly UnimplementedRoute[] = [
  r('/auth/enable', `${AUTH}AuthEnable`),
  r('/auth/disable', `${AUTH}AuthDisable`),
  r('/auth/status', `${AUTH}AuthStatus`),
  r('/auth/authenticate', `${AUTH}Authenticate`),
  r('/auth/user/add', `${AUTH}UserAdd`),
  r('/auth/user/get', `${AUTH}UserGet`),
  r('/auth/user/list', `${AUTH}UserList`),
  r('/auth/user/delete', `${AUTH}UserDelete`),
  r('/auth/user/changepw', `${AUTH}UserChangePassword`),
  r('/auth/user/grant', `${AUTH}UserGrantRole`),
  r('/auth/user/revoke', `${AUTH}UserRevokeRole`),
  r('/auth/role/add', `${AUTH}RoleAdd`),
  r('/auth/role/get', `${AUTH}RoleGet`),
  r('/auth/role/list', `${AUTH}RoleList`),
  r('/auth/role/delete', `${AUTH}RoleDelete`),
  r('/auth/role/grant', `${AUTH}RoleGrantPermission`),
  r('/auth/role/revoke', `${AUTH}RoleRevokePermission`),
  r('/lock/lock', '/v3lockpb.Lock/Lock'),
  r('/lock/unlock', '/v3lockpb.Lock/Unlock'),
  r('/election/campaign', '/v3electionpb.Election/Campaign'),
  r('/election/proclaim', '/v3electionpb.Election/Proclaim'),
  r('/election/leader', '/v3electionpb.Election/Leader'),
  r('/election/observe', '/v3electionpb.Election/Observe'),
  r('/election/resign', '/v3electionpb.Election/Resign'),
  r('/maintenance/downgrade', '/etcdserverpb.Maintenance/Downgrade'),
];
