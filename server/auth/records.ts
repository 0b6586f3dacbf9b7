/**
 * The auth store's backend records, in etcd's layout (FORMAT.md):
 * - bucket `auth`: `authEnabled` → one byte (1 on, 0 off); `authRevision` → uint64 big-endian;
 * - bucket `authUsers`: user name → authpb.User;
 * - bucket `authRoles`: role name → authpb.Role.
 */
import { Role, User } from '../../proto/gen/etcd/auth.js';
import { Bucket, type BackendOp } from '../storage/backend.js';

export const ENABLED_KEY = Buffer.from('authEnabled');
export const REVISION_KEY = Buffer.from('authRevision');

export function enabledOp(enabled: boolean): BackendOp {
  return { type: 'put', bucket: Bucket.Auth, key: ENABLED_KEY, value: Buffer.from([enabled ? 1 : 0]) };
}

export function revisionOp(revision: number): BackendOp {
  const value = Buffer.alloc(8);
  value.writeBigUInt64BE(BigInt(revision));
  return { type: 'put', bucket: Bucket.Auth, key: REVISION_KEY, value };
}

export function putUserOp(user: User): BackendOp {
  return { type: 'put', bucket: Bucket.AuthUsers, key: Buffer.from(user.name), value: Buffer.from(User.encode(user).finish()) };
}

export function delUserOp(name: string): BackendOp {
  return { type: 'del', bucket: Bucket.AuthUsers, key: Buffer.from(name) };
}

export function putRoleOp(role: Role): BackendOp {
  return { type: 'put', bucket: Bucket.AuthRoles, key: Buffer.from(role.name), value: Buffer.from(Role.encode(role).finish()) };
}

export function delRoleOp(name: string): BackendOp {
  return { type: 'del', bucket: Bucket.AuthRoles, key: Buffer.from(name) };
}

export const decodeUser = (value: Buffer): User => User.decode(value);
export const decodeRole = (value: Buffer): Role => Role.decode(value);

/** `authEnabled` is on only when it is exactly the byte 1. */
export const decodeEnabled = (value: Buffer | undefined): boolean => value !== undefined && value.length === 1 && value[0] === 1;

/** `authRevision`; 0 when absent or not 8 bytes. */
export const decodeRevision = (value: Buffer | undefined): number =>
  value !== undefined && value.length === 8 ? Number(value.readBigUInt64BE(0)) : 0;
