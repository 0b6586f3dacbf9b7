/**
 * What a client call needs from the auth store, by gRPC method path (pure, table-tested).
 *
 * Follows etcd 3.4's checks:
 * - KV Range: read on [key, range_end); Put: write on key, write on every key already
 *   attached to the lease it names, read on key with prev_kv; DeleteRange: write on the
 *   range, read on it with prev_kv; Txn: read on every compare's range, then each request of
 *   both branches — range: read; put: write on the key (no lease or prev_kv check, as etcd);
 *   delete: as DeleteRange; a nested txn: its own compares and requests (etcd 3.4 leaves
 *   nested txns unchecked; kvstore checks them); Compact: nothing;
 * - Lease: LeaseRevoke needs write on every key attached to the lease (none attached, or
 *   an unknown lease: nothing); LeaseTimeToLive with `keys` needs read on every attached key
 *   on the 3.5 line (RequirementOptions; 3.4 answers anyone);
 * - Maintenance Defragment, Snapshot, Hash, HashKV and every membership change: admin
 *   (role `root`); the Maintenance refusals are etcd's raw auth errors (code Unknown,
 *   message `auth: permission denied` etc.), as its Maintenance server sends them;
 * - Auth: every management call and the user/role lists need admin; UserGet needs admin or
 *   being that user; RoleGet admin or holding that role; Authenticate, AuthStatus nothing.
 *
 * A path absent from the table needs nothing (`undefined`); its token is resolved only when
 * the path is in TOKEN_RESOLVED.
 * Watch creates are checked one by one by the watch edge (read on the watched range).
 */
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { PermType } from './permissions.js';

export type Need =
  | { readonly kind: 'keys'; readonly type: PermType; readonly key: Buffer; readonly rangeEnd: Buffer }
  /** `raw`: refusals travel as etcd's unconverted auth errors (code Unknown, `auth: …`), as its Maintenance server sends them. */
  | { readonly kind: 'admin'; readonly raw?: boolean }
  | { readonly kind: 'adminOrSelf'; readonly user: string }
  | { readonly kind: 'adminOrRole'; readonly role: string };

/** The keys attached to a lease (empty for an unknown lease). */
export type LeaseKeys = (id: bigint) => readonly Buffer[];

const EMPTY = Buffer.alloc(0);
const read = (key: Buffer, rangeEnd: Buffer = EMPTY): Need => ({ kind: 'keys', type: PermType.Read, key, rangeEnd });
const write = (key: Buffer, rangeEnd: Buffer = EMPTY): Need => ({ kind: 'keys', type: PermType.Write, key, rangeEnd });
const ADMIN: readonly Need[] = [{ kind: 'admin' }];
const ADMIN_RAW: readonly Need[] = [{ kind: 'admin', raw: true }];
const NOTHING: readonly Need[] = [];

export function putNeeds(r: pb.PutRequest, leaseKeys: LeaseKeys | undefined): Need[] {
  const needs = [write(r.key)];
  if (leaseKeys && r.lease !== 0n) for (const k of leaseKeys(r.lease)) needs.push(write(k));
  if (r.prevKv) needs.push(read(r.key));
  return needs;
}

export function deleteNeeds(r: pb.DeleteRangeRequest): Need[] {
  const needs = [write(r.key, r.rangeEnd)];
  if (r.prevKv) needs.push(read(r.key, r.rangeEnd));
  return needs;
}

function opNeeds(ops: readonly pb.RequestOp[]): Need[] {
  const needs: Need[] = [];
  for (const op of ops) {
    const r = op.request;
    if (r === undefined) continue;
    if (r.$case === 'requestRange') needs.push(read(r.value.key, r.value.rangeEnd));
    else if (r.$case === 'requestPut') needs.push(write(r.value.key));
    else if (r.$case === 'requestDeleteRange') needs.push(...deleteNeeds(r.value));
    else needs.push(...txnNeeds(r.value));
  }
  return needs;
}

export function txnNeeds(r: pb.TxnRequest): Need[] {
  return [...r.compare.map((c) => read(c.key, c.rangeEnd)), ...opNeeds(r.success), ...opNeeds(r.failure)];
}

/** Per release line (the version profile). */
export interface RequirementOptions {
  /** LeaseTimeToLive with `keys` needs read on every attached key (3.5). */
  readonly leaseTimeToLiveKeys: boolean;
}

type Rule = (req: never, leaseKeys: LeaseKeys, opts: RequirementOptions) => readonly Need[];

const RULES: Readonly<Record<string, Rule>> = {
  '/etcdserverpb.KV/Range': (r: pb.RangeRequest) => [read(r.key, r.rangeEnd)],
  '/etcdserverpb.KV/Put': (r: pb.PutRequest, lk) => putNeeds(r, lk),
  '/etcdserverpb.KV/DeleteRange': (r: pb.DeleteRangeRequest) => deleteNeeds(r),
  '/etcdserverpb.KV/Txn': (r: pb.TxnRequest) => txnNeeds(r),
  '/etcdserverpb.Lease/LeaseRevoke': (r: pb.LeaseRevokeRequest, lk) => lk(r.ID).map((k) => write(k)),
  '/etcdserverpb.Lease/LeaseTimeToLive': (r: pb.LeaseTimeToLiveRequest, lk, o) => (r.keys && o.leaseTimeToLiveKeys ? lk(r.ID).map((k) => read(k)) : NOTHING),
  '/etcdserverpb.Maintenance/Defragment': () => ADMIN_RAW,
  '/etcdserverpb.Maintenance/Snapshot': () => ADMIN_RAW,
  '/etcdserverpb.Maintenance/Hash': () => ADMIN_RAW,
  '/etcdserverpb.Maintenance/HashKV': () => ADMIN_RAW,
  '/etcdserverpb.Cluster/MemberAdd': () => ADMIN,
  '/etcdserverpb.Cluster/MemberRemove': () => ADMIN,
  '/etcdserverpb.Cluster/MemberUpdate': () => ADMIN,
  '/etcdserverpb.Cluster/MemberPromote': () => ADMIN,
  '/etcdserverpb.Auth/AuthEnable': () => ADMIN,
  '/etcdserverpb.Auth/AuthDisable': () => ADMIN,
  '/etcdserverpb.Auth/UserAdd': () => ADMIN,
  '/etcdserverpb.Auth/UserDelete': () => ADMIN,
  '/etcdserverpb.Auth/UserChangePassword': () => ADMIN,
  '/etcdserverpb.Auth/UserGrantRole': () => ADMIN,
  '/etcdserverpb.Auth/UserRevokeRole': () => ADMIN,
  '/etcdserverpb.Auth/UserList': () => ADMIN,
  '/etcdserverpb.Auth/RoleAdd': () => ADMIN,
  '/etcdserverpb.Auth/RoleDelete': () => ADMIN,
  '/etcdserverpb.Auth/RoleList': () => ADMIN,
  '/etcdserverpb.Auth/RoleGrantPermission': () => ADMIN,
  '/etcdserverpb.Auth/RoleRevokePermission': () => ADMIN,
  '/etcdserverpb.Auth/UserGet': (r: pb.AuthUserGetRequest) => [{ kind: 'adminOrSelf', user: r.name }],
  '/etcdserverpb.Auth/RoleGet': (r: pb.AuthRoleGetRequest) => [{ kind: 'adminOrRole', role: r.role }],
};

/**
 * Paths whose token etcd 3.4 resolves even when it checks nothing else (auth disabled, or no
 * requirement): every call it proposes, its serialized reads, the Maintenance calls behind its
 * auth check and membership changes. An unknown token there fails with InvalidAuthToken;
 * `true`: the failure travels raw (`auth: invalid auth token`, code Unknown), as etcd's
 * Maintenance server sends it. Authenticate, AuthStatus, Status, MemberList, MoveLeader and
 * the lease reads never look at a token.
 */
export const TOKEN_RESOLVED: Readonly<Record<string, boolean>> = {
  '/etcdserverpb.KV/Range': false,
  '/etcdserverpb.KV/Put': false,
  '/etcdserverpb.KV/DeleteRange': false,
  '/etcdserverpb.KV/Txn': false,
  '/etcdserverpb.KV/Compact': false,
  '/etcdserverpb.Lease/LeaseGrant': false,
  '/etcdserverpb.Lease/LeaseRevoke': false,
  '/etcdserverpb.Maintenance/Alarm': true,
  '/etcdserverpb.Maintenance/Defragment': true,
  '/etcdserverpb.Maintenance/Snapshot': true,
  '/etcdserverpb.Maintenance/Hash': true,
  '/etcdserverpb.Maintenance/HashKV': true,
  '/etcdserverpb.Cluster/MemberAdd': false,
  '/etcdserverpb.Cluster/MemberRemove': false,
  '/etcdserverpb.Cluster/MemberUpdate': false,
  '/etcdserverpb.Cluster/MemberPromote': false,
  '/etcdserverpb.Auth/AuthEnable': false,
  '/etcdserverpb.Auth/AuthDisable': false,
  '/etcdserverpb.Auth/UserAdd': false,
  '/etcdserverpb.Auth/UserDelete': false,
  '/etcdserverpb.Auth/UserChangePassword': false,
  '/etcdserverpb.Auth/UserGrantRole': false,
  '/etcdserverpb.Auth/UserRevokeRole': false,
  '/etcdserverpb.Auth/UserGet': false,
  '/etcdserverpb.Auth/UserList': false,
  '/etcdserverpb.Auth/RoleAdd': false,
  '/etcdserverpb.Auth/RoleGet': false,
  '/etcdserverpb.Auth/RoleDelete': false,
  '/etcdserverpb.Auth/RoleList': false,
  '/etcdserverpb.Auth/RoleGrantPermission': false,
  '/etcdserverpb.Auth/RoleRevokePermission': false,
};

/** What the call at `path` with `request` needs, in check order; undefined: not checked at all. */
export function requirementsOf(path: string, request: unknown, leaseKeys: LeaseKeys, opts: RequirementOptions): readonly Need[] | undefined {
  const rule = RULES[path];
  return rule === undefined ? undefined : rule(request as never, leaseKeys, opts);
}

/** The watch create check: read on the watched range (`\0` end checked as a single key, as etcd does). */
export function watchNeeds(r: pb.WatchCreateRequest): Need {
  const rangeEnd = r.rangeEnd.length === 1 && r.rangeEnd[0] === 0 ? EMPTY : r.rangeEnd;
  return read(r.key, rangeEnd);
}
