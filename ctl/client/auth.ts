/**
 * The Auth API. With `username`/`password` in the client options the client authenticates
 * by itself (invoker.ts); `authenticate` is the explicit form.
 */
import type { Permission } from '../../proto/gen/etcd/auth.js';
import {
  AuthService,
  type AuthDisableResponse,
  type AuthEnableResponse,
  type AuthRoleAddResponse,
  type AuthRoleDeleteResponse,
  type AuthRoleGetResponse,
  type AuthRoleGrantPermissionResponse,
  type AuthRoleListResponse,
  type AuthRoleRevokePermissionResponse,
  type AuthStatusResponse,
  type AuthUserAddResponse,
  type AuthUserChangePasswordResponse,
  type AuthUserDeleteResponse,
  type AuthUserGetResponse,
  type AuthUserGrantRoleResponse,
  type AuthUserListResponse,
  type AuthUserRevokeRoleResponse,
  type AuthenticateResponse,
} from '../../proto/gen/etcd/rpc.js';
import type { CallOptions, Invoker } from './invoker.js';
import type { Result } from './result.js';

export interface Auth {
  /** The token to send as metadata `token`. */
  authenticate(name: string, password: string, opts?: CallOptions): Promise<Result<AuthenticateResponse>>;
  enable(opts?: CallOptions): Promise<Result<AuthEnableResponse>>;
  disable(opts?: CallOptions): Promise<Result<AuthDisableResponse>>;
  /** Whether auth is enabled (3.5; `not capable` before). */
  status(opts?: CallOptions): Promise<Result<AuthStatusResponse>>;
  userAdd(name: string, password: string, opts?: CallOptions & { readonly noPassword?: boolean }): Promise<Result<AuthUserAddResponse>>;
  userGet(name: string, opts?: CallOptions): Promise<Result<AuthUserGetResponse>>;
  userList(opts?: CallOptions): Promise<Result<AuthUserListResponse>>;
  userDelete(name: string, opts?: CallOptions): Promise<Result<AuthUserDeleteResponse>>;
  userChangePassword(name: string, password: string, opts?: CallOptions): Promise<Result<AuthUserChangePasswordResponse>>;
  userGrantRole(user: string, role: string, opts?: CallOptions): Promise<Result<AuthUserGrantRoleResponse>>;
  userRevokeRole(name: string, role: string, opts?: CallOptions): Promise<Result<AuthUserRevokeRoleResponse>>;
  roleAdd(name: string, opts?: CallOptions): Promise<Result<AuthRoleAddResponse>>;
  roleGet(role: string, opts?: CallOptions): Promise<Result<AuthRoleGetResponse>>;
  roleList(opts?: CallOptions): Promise<Result<AuthRoleListResponse>>;
  roleDelete(role: string, opts?: CallOptions): Promise<Result<AuthRoleDeleteResponse>>;
  roleGrantPermission(name: string, perm: Permission, opts?: CallOptions): Promise<Result<AuthRoleGrantPermissionResponse>>;
  roleRevokePermission(role: string, key: Buffer, rangeEnd: Buffer, opts?: CallOptions): Promise<Result<AuthRoleRevokePermissionResponse>>;
}

export function makeAuth(inv: Invoker): Auth {
  return {
    authenticate: (name, password, opts = {}) => inv.unary(AuthService.authenticate, { name, password }, 'repeatable', opts),
    enable: (opts = {}) => inv.unary(AuthService.authEnable, {}, 'mutable', opts),
    disable: (opts = {}) => inv.unary(AuthService.authDisable, {}, 'mutable', opts),
    // Not retried on a server-side Unavailable: before 3.5 the answer is `not capable` (Unavailable).
    status: (opts = {}) => inv.unary(AuthService.authStatus, {}, 'mutable', opts),
    userAdd: (name, password, opts = {}) =>
      inv.unary(AuthService.userAdd, { name, password, options: { noPassword: opts.noPassword ?? false }, hashedPassword: '' }, 'mutable', opts),
    userGet: (name, opts = {}) => inv.unary(AuthService.userGet, { name }, 'mutable', opts),
    userList: (opts = {}) => inv.unary(AuthService.userList, {}, 'mutable', opts),
    userDelete: (name, opts = {}) => inv.unary(AuthService.userDelete, { name }, 'mutable', opts),
    userChangePassword: (name, password, opts = {}) =>
      inv.unary(AuthService.userChangePassword, { name, password, hashedPassword: '' }, 'mutable', opts),
    userGrantRole: (user, role, opts = {}) => inv.unary(AuthService.userGrantRole, { user, role }, 'mutable', opts),
    userRevokeRole: (name, role, opts = {}) => inv.unary(AuthService.userRevokeRole, { name, role }, 'mutable', opts),
    roleAdd: (name, opts = {}) => inv.unary(AuthService.roleAdd, { name }, 'mutable', opts),
    roleGet: (role, opts = {}) => inv.unary(AuthService.roleGet, { role }, 'mutable', opts),
    roleList: (opts = {}) => inv.unary(AuthService.roleList, {}, 'mutable', opts),
    roleDelete: (role, opts = {}) => inv.unary(AuthService.roleDelete, { role }, 'mutable', opts),
    roleGrantPermission: (name, perm, opts = {}) => inv.unary(AuthService.roleGrantPermission, { name, perm }, 'mutable', opts),
    roleRevokePermission: (role, key, rangeEnd, opts = {}) =>
      inv.unary(AuthService.roleRevokePermission, { role, key, rangeEnd }, 'mutable', opts),
  };
}
