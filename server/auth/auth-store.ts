/**
 * The auth store: users, roles, the enabled flag and the auth revision, as a pure state
 * machine (no I/O, no clock). Every member holds one, changed only by the apply step in log
 * order, so all members agree; each mutation returns the backend ops that persist it
 * (records.ts, FORMAT.md) or a domain error, and leaves the state untouched on error.
 *
 * Rules (etcd 3.4's auth store):
 * - the auth revision starts at 1 and grows by one with every successful change of users or
 *   roles and with AuthDisable (not with AuthEnable, nor with no-op grants);
 * - AuthEnable needs user `root` holding role `root`; while enabled, user `root` and role
 *   `root` cannot be deleted and `root` cannot lose role `root` (InvalidAuthMgmt);
 * - role `root` need not exist to be granted; it grants every key (and admin rights);
 * - a user's roles are kept sorted; a role's permissions are kept sorted by key, granting
 *   the same [key, rangeEnd) again only changes its type;
 * - deleting a role removes it from every user.
 */
import { Permission_Type, type Permission, type Role, type User } from '../../proto/gen/etcd/auth.js';
import { type DomainError, type ErrorKind } from '../errors/domain-error.js';
import type { BackendOp } from '../storage/backend.js';
import { mergePermissions, permits, type MergedPermissions, type PermType } from './permissions.js';
import { delRoleOp, delUserOp, enabledOp, putRoleOp, putUserOp, revisionOp } from './records.js';

export const ROOT = 'root';

/** Who a request comes from, as the edge resolved it (token or client certificate). */
export interface AuthInfo {
  readonly username: string;
  /** The auth revision the identity was established at (checked against the store's). */
  readonly revision: number;
}

export type AuthOutcome = { readonly ok: true; readonly ops: BackendOp[] } | { readonly ok: false; readonly error: DomainError };

type Kind = Exclude<ErrorKind, 'Compacted' | 'FutureRev' | 'Internal' | 'Unimplemented'>;
const no = (kind: Kind): AuthOutcome => ({ ok: false, error: { kind } });
const denied = (kind: Kind): DomainError => ({ kind });

export interface AuthSnapshot {
  readonly enabled: boolean;
  readonly revision: number;
  readonly users: readonly User[];
  readonly roles: readonly Role[];
}

export class AuthStore {
  #enabled = false;
  #revision = 1;
  #users = new Map<string, User>();
  #roles = new Map<string, Role>();
  #perms = new Map<string, MergedPermissions>();

  constructor(state?: AuthSnapshot) {
    if (state) this.replace(state);
  }

  /** Replaces the whole state (startup, snapshot install). A revision of 0 reads as 1. */
  replace(state: AuthSnapshot): void {
    this.#enabled = state.enabled;
    this.#revision = Math.max(1, state.revision);
    this.#users = new Map(state.users.map((u) => [u.name.toString(), u]));
    this.#roles = new Map(state.roles.map((r) => [r.name.toString(), r]));
    this.#perms.clear();
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  get revision(): number {
    return this.#revision;
  }

  user(name: string): User | undefined {
    return this.#users.get(name);
  }

  role(name: string): Role | undefined {
    return this.#roles.get(name);
  }

  /** User names, ascending bytewise. */
  userNames(): string[] {
    return sortedNames(this.#users);
  }

  /** Role names, ascending bytewise. */
  roleNames(): string[] {
    return sortedNames(this.#roles);
  }

  hasRole(user: string, role: string): boolean {
    return this.#users.get(user)?.roles.includes(role) ?? false;
  }

  enable(): AuthOutcome {
    if (this.#enabled) return { ok: true, ops: [] };
    const root = this.#users.get(ROOT);
    if (root === undefined) return no('RootUserNotExist');
    if (!root.roles.includes(ROOT)) return no('RootRoleNotExist');
    this.#enabled = true;
    return { ok: true, ops: [enabledOp(true)] };
  }

  disable(): AuthOutcome {
    if (!this.#enabled) return { ok: true, ops: [] };
    this.#enabled = false;
    return { ok: true, ops: [enabledOp(false), this.#commit()] };
  }

  /** `hashedPassword` is a bcrypt hash, empty for a user without password. */
  userAdd(name: string, hashedPassword: Buffer, noPassword: boolean): AuthOutcome {
    if (name.length === 0) return no('UserEmpty');
    if (this.#users.has(name)) return no('UserAlreadyExist');
    const user: User = { name: Buffer.from(name), password: noPassword ? Buffer.alloc(0) : hashedPassword, roles: [], options: { noPassword } };
    return this.#putUser(user);
  }

  userDelete(name: string): AuthOutcome {
    if (this.#enabled && name === ROOT) return no('InvalidAuthMgmt');
    if (!this.#users.has(name)) return no('UserNotFound');
    this.#users.delete(name);
    this.#perms.clear();
    return { ok: true, ops: [delUserOp(name), this.#commit()] };
  }

  userChangePassword(name: string, hashedPassword: Buffer): AuthOutcome {
    const user = this.#users.get(name);
    if (user === undefined) return no('UserNotFound');
    return this.#putUser({ ...user, password: hashedPassword });
  }

  userGrantRole(name: string, role: string): AuthOutcome {
    const user = this.#users.get(name);
    if (user === undefined) return no('UserNotFound');
    if (role !== ROOT && !this.#roles.has(role)) return no('RoleNotFound');
    if (user.roles.includes(role)) return { ok: true, ops: [] };
    return this.#putUser({ ...user, roles: [...user.roles, role].sort(compareNames) });
  }

  userRevokeRole(name: string, role: string): AuthOutcome {
    if (this.#enabled && name === ROOT && role === ROOT) return no('InvalidAuthMgmt');
    const user = this.#users.get(name);
    if (user === undefined) return no('UserNotFound');
    const roles = user.roles.filter((r) => r !== role);
    if (roles.length === user.roles.length) return no('RoleNotGranted');
    return this.#putUser({ ...user, roles });
  }

  roleAdd(name: string): AuthOutcome {
    if (name.length === 0) return no('RoleEmpty');
    if (this.#roles.has(name)) return no('RoleAlreadyExist');
    return this.#putRole({ name: Buffer.from(name), keyPermission: [] });
  }

  roleDelete(name: string): AuthOutcome {
    if (this.#enabled && name === ROOT) return no('InvalidAuthMgmt');
    if (!this.#roles.has(name)) return no('RoleNotFound');
    this.#roles.delete(name);
    const ops: BackendOp[] = [delRoleOp(name)];
    for (const user of this.#users.values()) {
      if (!user.roles.includes(name)) continue;
      const updated = { ...user, roles: user.roles.filter((r) => r !== name) };
      this.#users.set(updated.name.toString(), updated);
      ops.push(putUserOp(updated));
    }
    this.#perms.clear();
    ops.push(this.#commit());
    return { ok: true, ops };
  }

  roleGrantPermission(name: string, perm: Permission | undefined): AuthOutcome {
    const role = this.#roles.get(name);
    if (role === undefined) return no('RoleNotFound');
    if (perm === undefined) return no('PermissionNotGiven');
    const same = (p: Permission): boolean => p.key.equals(perm.key) && p.rangeEnd.equals(perm.rangeEnd);
    const granted: Permission = { permType: perm.permType, key: perm.key, rangeEnd: perm.rangeEnd };
    const keyPermission = role.keyPermission.some(same)
      ? role.keyPermission.map((p) => (same(p) ? { ...p, permType: perm.permType } : p))
      : [...role.keyPermission, granted].sort((a, b) => Buffer.compare(a.key, b.key));
    return this.#putRole({ ...role, keyPermission });
  }

  roleRevokePermission(name: string, key: Buffer, rangeEnd: Buffer): AuthOutcome {
    const role = this.#roles.get(name);
    if (role === undefined) return no('RoleNotFound');
    const keyPermission = role.keyPermission.filter((p) => !p.key.equals(key) || !p.rangeEnd.equals(rangeEnd));
    if (keyPermission.length === role.keyPermission.length) return no('PermissionNotGranted');
    return this.#putRole({ ...role, keyPermission });
  }

  /** Admin rights (role `root`); anyone while auth is disabled. */
  checkAdmin(info: AuthInfo | undefined): DomainError | undefined {
    if (!this.#enabled) return undefined;
    if (info === undefined || info.username === '') return denied('UserEmpty');
    const user = this.#users.get(info.username);
    if (user === undefined) return denied('UserNotFound');
    return user.roles.includes(ROOT) ? undefined : denied('PermissionDenied');
  }

  /** `type` on [key, rangeEnd) (empty rangeEnd: the key); anyone while auth is disabled. */
  checkKeys(info: AuthInfo | undefined, key: Buffer, rangeEnd: Buffer, type: PermType): DomainError | undefined {
    if (!this.#enabled) return undefined;
    if (info === undefined || info.revision === 0) return denied('UserEmpty');
    if (info.revision < this.#revision) return denied('AuthOldRevision');
    const user = this.#users.get(info.username);
    if (user === undefined) return denied('PermissionDenied');
    if (user.roles.includes(ROOT)) return undefined;
    return permits(this.#permsOf(user), key, rangeEnd, type) ? undefined : denied('PermissionDenied');
  }

  #permsOf(user: User): MergedPermissions {
    const name = user.name.toString();
    let perms = this.#perms.get(name);
    if (perms === undefined) {
      perms = mergePermissions(user.roles, (r) => this.#roles.get(r));
      this.#perms.set(name, perms);
    }
    return perms;
  }

  #putUser(user: User): AuthOutcome {
    this.#users.set(user.name.toString(), user);
    this.#perms.clear();
    return { ok: true, ops: [putUserOp(user), this.#commit()] };
  }

  #putRole(role: Role): AuthOutcome {
    this.#roles.set(role.name.toString(), role);
    this.#perms.clear();
    return { ok: true, ops: [putRoleOp(role), this.#commit()] };
  }

  #commit(): BackendOp {
    this.#revision += 1;
    return revisionOp(this.#revision);
  }
}

function compareNames(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

function sortedNames(m: ReadonlyMap<string, unknown>): string[] {
  return [...m.keys()].sort(compareNames);
}

export { Permission_Type };
