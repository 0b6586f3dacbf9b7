/**
 * Applying committed auth requests to the member's auth store (server/auth), in log order.
 *
 * Every member applies the same requests to the same state, so stores agree; the backend ops
 * of each change go to the next backend flush with the entry's other effects. Token side
 * effects are this member's own (tokens are not replicated state): an Authenticate records
 * its simple token, deleting a user or changing its password drops the user's tokens,
 * AuthDisable drops all.
 *
 * Authenticate carries the auth revision at which the proposer checked the password: when
 * the store moved since, the entry answers with an empty token and the proposer checks again.
 */
import type { InternalRequest } from '../../proto/gen/kvstore/internal.js';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import type { AuthOutcome, AuthStore } from '../auth/auth-store.js';
import type { LeaseKeys } from '../auth/requirements.js';
import { err, fail, ok, type Result } from '../errors/domain-error.js';
import type { BackendOp } from '../storage/backend.js';

/** The member's simple tokens as the apply step changes them (absent with jwt tokens). */
export interface TokenPort {
  assign(token: string, user: string): void;
  invalidateUser(user: string): void;
  clear(): void;
}

export interface AuthApplyPort {
  readonly store: AuthStore;
  readonly tokens?: TokenPort;
  /** The keys attached to a lease, for the check at apply (auth/apply-check.ts); default: none. */
  readonly leaseKeys?: LeaseKeys;
}

type Req = NonNullable<InternalRequest['request']>;
export type AuthCase = Extract<
  Req['$case'],
  | 'authEnable'
  | 'authDisable'
  | 'authenticate'
  | 'authUserAdd'
  | 'authUserDelete'
  | 'authUserChangePassword'
  | 'authUserGrantRole'
  | 'authUserRevokeRole'
  | 'authRoleAdd'
  | 'authRoleDelete'
  | 'authRoleGrantPermission'
  | 'authRoleRevokePermission'
>;
export type AuthRequest = Extract<Req, { $case: AuthCase }>;

const AUTH_CASES: ReadonlySet<string> = new Set<AuthCase>([
  'authEnable',
  'authDisable',
  'authenticate',
  'authUserAdd',
  'authUserDelete',
  'authUserChangePassword',
  'authUserGrantRole',
  'authUserRevokeRole',
  'authRoleAdd',
  'authRoleDelete',
  'authRoleGrantPermission',
  'authRoleRevokePermission',
]);

export function isAuthRequest(r: Req): r is AuthRequest {
  return AUTH_CASES.has(r.$case);
}

export interface AuthApplied {
  readonly response: { header: pb.ResponseHeader; token?: string };
  readonly ops: BackendOp[];
}

/** Applies one auth request; `header` is the response header (revision only). */
export function applyAuth(port: AuthApplyPort, r: AuthRequest, header: pb.ResponseHeader): Result<AuthApplied> {
  const { store, tokens } = port;
  const done = (o: AuthOutcome, after?: () => void): Result<AuthApplied> => {
    if (!o.ok) return fail(o.error);
    after?.();
    return ok({ response: { header }, ops: o.ops });
  };
  switch (r.$case) {
    case 'authEnable':
      return done(store.enable());
    case 'authDisable':
      return done(store.disable(), () => tokens?.clear());
    case 'authenticate': {
      if (!store.enabled) return err('AuthNotEnabled');
      const a = r.value;
      const user = store.user(a.name);
      if (user === undefined || user.options?.noPassword) return err('AuthFailed');
      if (Number(a.authRevision) !== store.revision) return ok({ response: { header, token: '' }, ops: [] });
      if (a.simpleToken !== '') tokens?.assign(a.simpleToken, a.name);
      return ok({ response: { header, token: a.simpleToken }, ops: [] });
    }
    case 'authUserAdd': {
      const u = r.value;
      return done(store.userAdd(u.name, Buffer.from(u.hashedPassword, 'latin1'), u.options?.noPassword ?? false));
    }
    case 'authUserDelete':
      return done(store.userDelete(r.value.name), () => tokens?.invalidateUser(r.value.name));
    case 'authUserChangePassword':
      return done(store.userChangePassword(r.value.name, Buffer.from(r.value.hashedPassword, 'latin1')), () =>
        tokens?.invalidateUser(r.value.name),
      );
    case 'authUserGrantRole':
      return done(store.userGrantRole(r.value.user, r.value.role));
    case 'authUserRevokeRole':
      return done(store.userRevokeRole(r.value.name, r.value.role));
    case 'authRoleAdd':
      return done(store.roleAdd(r.value.name));
    case 'authRoleDelete':
      return done(store.roleDelete(r.value.role));
    case 'authRoleGrantPermission':
      return done(store.roleGrantPermission(r.value.name, r.value.perm));
    case 'authRoleRevokePermission':
      return done(store.roleRevokePermission(r.value.role, r.value.key, r.value.rangeEnd));
  }
}
