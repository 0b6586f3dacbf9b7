/**
 * A user's merged key permissions and the checks against them (pure).
 *
 * Merging (as etcd's range permission cache): every permission of every role the user has
 * (roles that no longer exist are skipped) goes to the read set (READ, READWRITE) and/or the
 * write set (WRITE, READWRITE). A permission with an empty range end is the single key; a
 * range end of `\0` means every key from `key` on.
 *
 * Checking a request on [key, rangeEnd): an empty range end is a single key and passes when
 * any interval of the set holds it; otherwise the set must cover the whole interval without
 * a gap (intervals.ts). Users holding the `root` role pass every check (auth-store.ts).
 */
import { Permission_Type, type Permission, type Role } from '../../proto/gen/etcd/auth.js';
import { contains, intersects, pointOf, rangeOf, sortIntervals, type KeyInterval } from './intervals.js';

export const PermType = { Read: Permission_Type.READ, Write: Permission_Type.WRITE } as const;
export type PermType = (typeof PermType)[keyof typeof PermType];

export interface MergedPermissions {
  /** Sorted by begin. */
  readonly read: readonly KeyInterval[];
  /** Sorted by begin. */
  readonly write: readonly KeyInterval[];
}

function intervalOf(p: Permission): KeyInterval {
  return p.rangeEnd.length === 0 ? pointOf(p.key) : rangeOf(p.key, p.rangeEnd);
}

/** The merged read and write sets of a user holding `roleNames`, looked up with `roleOf`. */
export function mergePermissions(roleNames: readonly string[], roleOf: (name: string) => Role | undefined): MergedPermissions {
  const read: KeyInterval[] = [];
  const write: KeyInterval[] = [];
  for (const name of roleNames) {
    const role = roleOf(name);
    if (role === undefined) continue;
    for (const p of role.keyPermission) {
      const ivl = intervalOf(p);
      if (p.permType === Permission_Type.READ || p.permType === Permission_Type.READWRITE) read.push(ivl);
      if (p.permType === Permission_Type.WRITE || p.permType === Permission_Type.READWRITE) write.push(ivl);
    }
  }
  return { read: sortIntervals(read), write: sortIntervals(write) };
}

/** Whether `perms` allow `type` on [key, rangeEnd) (empty rangeEnd: the single key). */
export function permits(perms: MergedPermissions, key: Buffer, rangeEnd: Buffer, type: PermType): boolean {
  const set = type === PermType.Read ? perms.read : perms.write;
  if (rangeEnd.length === 0) return intersects(set, pointOf(key));
  return contains(set, rangeOf(key, rangeEnd));
}
