/**
 * Changing users and roles as etcd 3.4's v2 auth does (`User.merge`, `Role.merge`): a change
 * is a set of grants and revokes applied atomically to the stored record.
 *
 * Contract (pure):
 * - user: every granted role must be new (409 `Granting duplicate role R for user U`), every
 *   revoked role present (409 `Revoking ungranted role R for user U`); the result's roles are
 *   sorted and never nil; a new password replaces the hash (hashed by the caller);
 * - role: granting a path already granted is 409 (`Granting duplicate read|write permission P`);
 *   revoking a path not granted is ignored; a side with no grant (or revoke) keeps its lists as
 *   they were (nil stays nil), otherwise both lists come out sorted and never nil;
 * - `sameRecord` is Go's reflect.DeepEqual on these records (nil ≠ empty list).
 */
import { refusal, ROOT, type AuthRefusal, type NameList, type Permissions, type RWPermission, type V2Role, type V2User } from './types.js';

export type Merged<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AuthRefusal };

const sorted = (s: ReadonlySet<string>): string[] => [...s].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** `newHash`: the bcrypt hash of the request's password, undefined when it carried none. */
export function mergeUser(old: V2User, change: V2User, newHash: string | undefined): Merged<V2User> {
  const roles = new Set(old.roles ?? []);
  for (const g of change.grant ?? []) {
    if (roles.has(g)) return { ok: false, error: refusal(409, `Granting duplicate role ${g} for user ${change.user}`) };
    roles.add(g);
  }
  for (const r of change.revoke ?? []) {
    if (!roles.has(r)) return { ok: false, error: refusal(409, `Revoking ungranted role ${r} for user ${change.user}`) };
    roles.delete(r);
  }
  return { ok: true, value: { user: old.user, password: newHash ?? old.password, roles: sorted(roles), grant: null, revoke: null } };
}

export function mergeRole(old: V2Role, change: V2Role): Merged<V2Role> {
  let kv = old.permissions.kv;
  if (change.grant !== undefined) {
    const granted = grantPaths(kv, change.grant.kv);
    if (!granted.ok) return granted;
    kv = granted.value;
  }
  if (change.revoke !== undefined) kv = revokePaths(kv, change.revoke.kv);
  return { ok: true, value: { role: old.role, permissions: { kv } } };
}

function grantPaths(rw: RWPermission, add: RWPermission): Merged<RWPermission> {
  const read = new Set(rw.read ?? []);
  for (const p of add.read ?? []) {
    if (read.has(p)) return { ok: false, error: refusal(409, `Granting duplicate read permission ${p}`) };
    read.add(p);
  }
  const write = new Set(rw.write ?? []);
  for (const p of add.write ?? []) {
    if (write.has(p)) return { ok: false, error: refusal(409, `Granting duplicate write permission ${p}`) };
    write.add(p);
  }
  return { ok: true, value: { read: sorted(read), write: sorted(write) } };
}

function revokePaths(rw: RWPermission, remove: RWPermission): RWPermission {
  const read = new Set(rw.read ?? []);
  for (const p of remove.read ?? []) read.delete(p);
  const write = new Set(rw.write ?? []);
  for (const p of remove.write ?? []) write.delete(p);
  return { read: sorted(read), write: sorted(write) };
}

/** The root user always holds the root role (etcd adds it when creating and reading `root`). */
export function withRootRole(u: V2User): V2User {
  if (u.user !== ROOT || (u.roles ?? []).includes(ROOT)) return u;
  return { ...u, roles: [...(u.roles ?? []), ROOT] };
}

const sameList = (a: NameList, b: NameList): boolean =>
  a === null || b === null ? a === b : a.length === b.length && a.every((x, i) => x === b[i]);
const samePerms = (a: Permissions | undefined, b: Permissions | undefined): boolean =>
  a === undefined || b === undefined ? a === b : sameList(a.kv.read, b.kv.read) && sameList(a.kv.write, b.kv.write);

export function sameUser(a: V2User, b: V2User): boolean {
  return a.user === b.user && a.password === b.password && sameList(a.roles, b.roles) && sameList(a.grant, b.grant) && sameList(a.revoke, b.revoke);
}

export function sameRole(a: V2Role, b: V2Role): boolean {
  return a.role === b.role && samePerms(a.permissions, b.permissions) && samePerms(a.grant, b.grant) && samePerms(a.revoke, b.revoke);
}
