/**
 * The data of etcd's v2 auth (etcd 3.4 `etcdserver/api/v2auth`): users, roles with v2 key-path
 * permissions, and the failures its API answers with.
 *
 * Contract:
 * - a list is `null` where Go holds a nil slice and `[]` where it holds an empty one: both
 *   reach the wire (`"roles":null` vs `"roles":[]`) and the stored values, so they stay apart;
 * - `password` is a bcrypt hash once stored; `''` means absent (Go's omitempty);
 * - `grant`/`revoke` of a user are request-only lists; of a role, request-only permission sets
 *   (`undefined` = Go's nil pointer);
 * - the root role is never stored: it is the constant below, as is the guest role written on
 *   the first `auth enable`.
 */

export type NameList = readonly string[] | null;

export interface RWPermission {
  readonly read: NameList;
  readonly write: NameList;
}

export interface Permissions {
  readonly kv: RWPermission;
}

export interface V2User {
  readonly user: string;
  readonly password: string;
  readonly roles: NameList;
  readonly grant: NameList;
  readonly revoke: NameList;
}

export interface V2Role {
  readonly role: string;
  readonly permissions: Permissions;
  readonly grant?: Permissions;
  readonly revoke?: Permissions;
}

/** A refusal of the auth API: HTTP status and etcd's text (`auth: …`). */
export interface AuthRefusal {
  readonly kind: 'AuthRefusal';
  readonly status: number;
  readonly message: string;
}

export const refusal = (status: number, text: string): AuthRefusal => ({ kind: 'AuthRefusal', status, message: `auth: ${text}` });

export const ROOT = 'root';
export const GUEST = 'guest';

const ALL: RWPermission = { read: ['/*'], write: ['/*'] };
export const ROOT_ROLE: V2Role = { role: ROOT, permissions: { kv: ALL } };
export const GUEST_ROLE: V2Role = { role: GUEST, permissions: { kv: ALL } };

export const emptyUser = (user: string): V2User => ({ user, password: '', roles: null, grant: null, revoke: null });
export const NO_PERMISSIONS: Permissions = { kv: { read: null, write: null } };

/** Go's `Permissions.IsEmpty` on a pointer: nil or no path at all. */
export function permissionsEmpty(p: Permissions | undefined): boolean {
  return p === undefined || ((p.kv.read ?? []).length === 0 && (p.kv.write ?? []).length === 0);
}
