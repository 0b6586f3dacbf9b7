/**
 * The check of a committed request at apply time, against the auth state as of that entry
 * (pure; every member reaches the same answer). etcd's authApplierV3, 3.4:
 * - the identity is the proposal header's `username` and `auth_revision`, filled by the
 *   proposing member from the caller it checked at its edge (request-auth.ts);
 * - Put: write on the key, write on every key already attached to its lease, read on the key
 *   with prev_kv; DeleteRange: write on the range, read on it with prev_kv; Txn: read on every
 *   compare's range and each request of both branches (put: write; delete: as DeleteRange;
 *   range: read; a nested txn: its own compares and requests, as the edge checks it);
 *   LeaseRevoke: write on every key attached to the lease;
 * - a key check made with an auth revision older than the store's fails with AuthOldRevision
 *   (answered so: the client refreshes its token and retries, as clientv3 does); a permission
 *   revoked since the edge check fails with PermissionDenied;
 * - auth management (every auth request but Authenticate) needs admin (no revision check,
 *   as etcd's IsAdminPermitted);
 * - Compaction, LeaseGrant, Alarm and the member's internal requests need nothing.
 *
 * The caller (the applier) checks only while auth is enabled and the header names an identity
 * (auth_revision ≠ 0): entries written before the fields existed, internal proposals and calls
 * made while auth was disabled apply as before.
 */
import type { InternalRequest, RequestHeader } from '../../proto/gen/kvstore/internal.js';
import type { DomainError } from '../errors/domain-error.js';
import type { AuthStore } from './auth-store.js';
import { checkNeeds } from './check-needs.js';
import { PermType } from './permissions.js';
import { deleteNeeds, putNeeds, txnNeeds, type LeaseKeys, type Need } from './requirements.js';

type Request = NonNullable<InternalRequest['request']>;

const ADMIN: readonly Need[] = [{ kind: 'admin' }];
const NOTHING: readonly Need[] = [];
const EMPTY = Buffer.alloc(0);

/** What the committed `r` needs from its proposer's identity. */
export function proposalNeeds(r: Request, leaseKeys: LeaseKeys): readonly Need[] {
  switch (r.$case) {
    case 'put':
      return putNeeds(r.value, leaseKeys);
    case 'deleteRange':
      return deleteNeeds(r.value);
    case 'txn':
      return txnNeeds(r.value);
    case 'leaseRevoke':
      return leaseKeys(r.value.ID).map((key) => ({ kind: 'keys', type: PermType.Write, key, rangeEnd: EMPTY }));
    case 'authEnable':
    case 'authDisable':
    case 'authUserAdd':
    case 'authUserDelete':
    case 'authUserChangePassword':
    case 'authUserGrantRole':
    case 'authUserRevokeRole':
    case 'authRoleAdd':
    case 'authRoleDelete':
    case 'authRoleGrantPermission':
    case 'authRoleRevokePermission':
      return ADMIN;
    default:
      return NOTHING;
  }
}

/** Undefined when `r` may apply; else the error it answers with. Call only with auth enabled and `header.authRevision` ≠ 0. */
export function checkProposal(store: AuthStore, header: RequestHeader, r: Request, leaseKeys: LeaseKeys): DomainError | undefined {
  const needs = proposalNeeds(r, leaseKeys);
  if (needs.length === 0) return undefined;
  return checkNeeds(store, needs, { username: header.username, revision: Number(header.authRevision) });
}
