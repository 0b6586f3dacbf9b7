/**
 * Auth RPCs. Changes go through the log (every member applies them to its auth store, in
 * order); reads (AuthStatus, UserGet/List, RoleGet/List) pass a read barrier and read the
 * local store. Who may call what is checked at the edge (server/auth/gate.ts).
 *
 * Passwords never enter the log: the proposing member hashes them with bcrypt
 * (`--bcrypt-cost`, default 10) and proposes only the hash (`hashedPassword`).
 *
 * Authenticate (as etcd): auth must be enabled; after a read barrier the password is
 * checked here against the local store (unknown user, a user without password or a wrong
 * password: AuthFailed); with simple tokens the token is then proposed so every member
 * knows it; if the auth store changed between the check and the apply, the check is made
 * again. With jwt tokens the token is signed here, with the revision checked.
 */
import { randomBytes } from 'node:crypto';
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import type { AuthStore } from '../../auth/auth-store.js';
import { newSimpleToken } from '../../auth/simple-tokens.js';
import type { Tokens } from '../../auth/tokens.js';
import { err, ok, type Result } from '../../errors/domain-error.js';
import type { AuthService } from '../services.js';
import type { ServiceContext } from './context.js';
import { proposeAndFill } from './propose.js';
import { authOf, type RequestAuth } from '../../auth/request-auth.js';

/** bcrypt, as a port (bcryptjs at the composition root). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  compare(password: string, hash: string): Promise<boolean>;
}

export interface AuthServiceDeps {
  readonly store: AuthStore;
  readonly tokens: Tokens;
  readonly passwords: PasswordHasher;
}

const MAX_AUTHENTICATE_ROUNDS = 8;

export function createAuthService(ctx: ServiceContext, deps: AuthServiceDeps): AuthService {
  const { member, store: kv } = ctx;
  const { store, passwords, tokens } = deps;
  const header = (): pb.ResponseHeader => member.header(kv.currentRevision);
  const barrier = (): Promise<Result<void>> => member.readBarrier();
  const propose = <T extends { header?: pb.ResponseHeader | undefined }>(r: Parameters<typeof proposeAndFill>[1], caller?: RequestAuth) =>
    proposeAndFill<T>(ctx, r, caller);

  async function checkPassword(name: string, password: string): Promise<Result<number>> {
    const user = store.user(name);
    if (user === undefined || user.options?.noPassword) return err('AuthFailed');
    const revision = store.revision;
    if (!(await passwords.compare(password, user.password.toString('latin1')))) return err('AuthFailed');
    return ok(revision);
  }

  return {
    authEnable: (req) => propose<pb.AuthEnableResponse>({ $case: 'authEnable', value: req }),
    authDisable: (req) => propose<pb.AuthDisableResponse>({ $case: 'authDisable', value: req }),

    async authStatus() {
      const b = await barrier();
      if (!b.ok) return b;
      return ok({ header: header(), enabled: store.enabled, authRevision: BigInt(store.revision) });
    },

    async authenticate(req) {
      if (!store.enabled) return err('AuthNotEnabled');
      const b = await barrier();
      if (!b.ok) return b;
      for (let round = 0; round < MAX_AUTHENTICATE_ROUNDS; round += 1) {
        if (!store.enabled) return err('AuthNotEnabled');
        const checked = await checkPassword(req.name, req.password);
        if (!checked.ok) return checked;
        if (tokens.kind === 'jwt') {
          if (checked.value !== store.revision) continue;
          return ok({ header: header(), token: await tokens.jwt.sign(req.name, checked.value) });
        }
        const simpleToken = newSimpleToken(randomBytes, checked.value);
        const res = await propose<pb.AuthenticateResponse>({
          $case: 'authenticate',
          value: { name: req.name, simpleToken, authRevision: BigInt(checked.value) },
        });
        if (!res.ok || res.value.token !== '') return res;
      }
      return err('AuthOldRevision');
    },

    async userAdd(req) {
      if (req.name.length === 0) return err('UserEmpty');
      const noPassword = req.options?.noPassword ?? false;
      const hashedPassword = noPassword ? '' : req.hashedPassword !== '' ? req.hashedPassword : await passwords.hash(req.password);
      return propose<pb.AuthUserAddResponse>({ $case: 'authUserAdd', value: { name: req.name, password: '', options: { noPassword }, hashedPassword } }, authOf(req));
    },

    async userGet(req) {
      const b = await barrier();
      if (!b.ok) return b;
      const user = store.user(req.name);
      if (user === undefined) return err('UserNotFound');
      return ok({ header: header(), roles: [...user.roles] });
    },

    async userList() {
      const b = await barrier();
      if (!b.ok) return b;
      return ok({ header: header(), users: store.userNames() });
    },

    userDelete: (req) => propose<pb.AuthUserDeleteResponse>({ $case: 'authUserDelete', value: req }),

    async userChangePassword(req) {
      if (store.user(req.name) === undefined) return err('UserNotFound');
      const hashedPassword = req.hashedPassword !== '' ? req.hashedPassword : await passwords.hash(req.password);
      return propose<pb.AuthUserChangePasswordResponse>({ $case: 'authUserChangePassword', value: { name: req.name, password: '', hashedPassword } }, authOf(req));
    },

    userGrantRole: (req) => propose<pb.AuthUserGrantRoleResponse>({ $case: 'authUserGrantRole', value: req }),
    userRevokeRole: (req) => propose<pb.AuthUserRevokeRoleResponse>({ $case: 'authUserRevokeRole', value: req }),
    roleAdd: (req) => propose<pb.AuthRoleAddResponse>({ $case: 'authRoleAdd', value: req }),

    async roleGet(req) {
      const b = await barrier();
      if (!b.ok) return b;
      const role = store.role(req.role);
      if (role === undefined) return err('RoleNotFound');
      return ok({ header: header(), perm: role.keyPermission.map((p) => ({ ...p })) });
    },

    async roleList() {
      const b = await barrier();
      if (!b.ok) return b;
      return ok({ header: header(), roles: store.roleNames() });
    },

    roleDelete: (req) => propose<pb.AuthRoleDeleteResponse>({ $case: 'authRoleDelete', value: req }),
    roleGrantPermission: (req) => propose<pb.AuthRoleGrantPermissionResponse>({ $case: 'authRoleGrantPermission', value: req }),
    roleRevokePermission: (req) => propose<pb.AuthRoleRevokePermissionResponse>({ $case: 'authRoleRevokePermission', value: req }),
  };
}
