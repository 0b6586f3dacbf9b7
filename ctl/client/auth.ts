/**
 * The Auth API subset the tools need. With `username`/`password` in the client options the
 * client authenticates by itself (invoker.ts); `authenticate` is the explicit form.
 */
import {
  AuthService,
  type AuthDisableResponse,
  type AuthEnableResponse,
  type AuthRoleAddResponse,
  type AuthStatusResponse,
  type AuthUserAddResponse,
  type AuthUserGrantRoleResponse,
  type AuthenticateResponse,
} from '../../proto/gen/etcd/rpc.js';
import type { CallOptions, Invoker } from './invoker.js';
import type { Result } from './result.js';

export interface Auth {
  /** The token to send as metadata `token`. */
  authenticate(name: string, password: string, opts?: CallOptions): Promise<Result<AuthenticateResponse>>;
  enable(opts?: CallOptions): Promise<Result<AuthEnableResponse>>;
  disable(opts?: CallOptions): Promise<Result<AuthDisableResponse>>;
  userAdd(name: string, password: string, opts?: CallOptions): Promise<Result<AuthUserAddResponse>>;
  userGrantRole(user: string, role: string, opts?: CallOptions): Promise<Result<AuthUserGrantRoleResponse>>;
  roleAdd(name: string, opts?: CallOptions): Promise<Result<AuthRoleAddResponse>>;
  /** Whether auth is enabled (Unimplemented on a server without an auth store). */
  status(opts?: CallOptions): Promise<Result<AuthStatusResponse>>;
}

export function makeAuth(inv: Invoker): Auth {
  return {
    authenticate: (name, password, opts = {}) => inv.unary(AuthService.authenticate, { name, password }, 'repeatable', opts),
    enable: (opts = {}) => inv.unary(AuthService.authEnable, {}, 'mutable', opts),
    disable: (opts = {}) => inv.unary(AuthService.authDisable, {}, 'mutable', opts),
    userAdd: (name, password, opts = {}) =>
      inv.unary(AuthService.userAdd, { name, password, options: { noPassword: false }, hashedPassword: '' }, 'mutable', opts),
    userGrantRole: (user, role, opts = {}) => inv.unary(AuthService.userGrantRole, { user, role }, 'mutable', opts),
    roleAdd: (name, opts = {}) => inv.unary(AuthService.roleAdd, { name }, 'mutable', opts),
    // Not retried on a server-side Unavailable: before 3.5 the answer is `not capable` (Unavailable).
    status: (opts = {}) => inv.unary(AuthService.authStatus, {}, 'mutable', opts),
  };
}
