/**
 * Reading the auth store's records from a backend view (startup, snapshot install).
 * `initialOps` are the records a store that never had any gets written (etcd writes
 * `authRevision` = 1 when it creates its auth buckets).
 */
import type { Role, User } from '../../proto/gen/etcd/auth.js';
import { Bucket, type BackendOp, type ReadView } from '../storage/backend.js';
import type { AuthSnapshot } from './auth-store.js';
import { decodeEnabled, decodeRevision, decodeRole, decodeUser, ENABLED_KEY, REVISION_KEY, revisionOp } from './records.js';

export async function loadAuthSnapshot(view: ReadView): Promise<AuthSnapshot> {
  const users: User[] = [];
  const roles: Role[] = [];
  for await (const [, v] of view.iterate(Bucket.AuthUsers)) users.push(decodeUser(Buffer.from(v)));
  for await (const [, v] of view.iterate(Bucket.AuthRoles)) roles.push(decodeRole(Buffer.from(v)));
  return {
    enabled: decodeEnabled(await view.get(Bucket.Auth, ENABLED_KEY)),
    revision: decodeRevision(await view.get(Bucket.Auth, REVISION_KEY)),
    users,
    roles,
  };
}

/** The ops a backend without an auth revision needs (none when it has one). */
export function initialOps(snapshot: AuthSnapshot): BackendOp[] {
  return snapshot.revision === 0 ? [revisionOp(1)] : [];
}
