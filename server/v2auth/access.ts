/**
 * Whether a role lets a v2 key be read or written (etcd 3.4's `HasKeyAccess`,
 * `HasRecursiveAccess`). Keys are user keys as in the URL (`/foo` for `/v2/keys/foo`).
 *
 * Contract (pure): a pattern ending in `*` matches every key with the text before the `*` as
 * prefix, any other pattern only itself; a recursive request needs a `*` pattern covering the
 * key; the root role has every access. Writes check `write`, reads `read`.
 */
import { ROOT, type RWPermission, type V2Role } from './types.js';

function simpleMatch(pattern: string, key: string): boolean {
  if (pattern.endsWith('*')) return key.startsWith(pattern.slice(0, -1));
  return key === pattern;
}

function prefixMatch(pattern: string, key: string): boolean {
  return pattern.endsWith('*') && key.startsWith(pattern.slice(0, -1));
}

const patterns = (kv: RWPermission, write: boolean): readonly string[] => (write ? kv.write : kv.read) ?? [];

export function hasKeyAccess(role: V2Role, key: string, write: boolean): boolean {
  if (role.role === ROOT) return true;
  return patterns(role.permissions.kv, write).some((p) => p !== '' && simpleMatch(p, key));
}

export function hasRecursiveAccess(role: V2Role, key: string, write: boolean): boolean {
  if (role.role === ROOT) return true;
  return patterns(role.permissions.kv, write).some((p) => p !== '' && prefixMatch(p, key));
}
