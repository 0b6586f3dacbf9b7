/**
 * The member's services as one caller sees them: every call checked by the auth gate
 * (server/auth/gate.ts) against that caller, as etcd checks each call its in-process client
 * makes with the caller's context (its gateway, its v3lock and v3election servers).
 *
 * `callerServices(gate, services, callerNow)` wraps `services`; `callerNow()` is asked at each
 * call (the JSON gateway answers from its request scope, a gRPC Lock or Election call from its
 * own metadata and client certificate; undefined: no caller is known). Rules, as the edges apply
 * them to direct calls:
 * - while auth is disabled and the caller sent no token, nothing is checked (one boolean);
 * - each unary call asks `gate.check(<its gRPC path>, request, caller)` first and answers the
 *   gate's error instead of calling through;
 * - each watch create is checked (`gate.checkWatch`), in order, behind the earlier checks of its
 *   session; a refused one is answered `created` + `canceled` as etcd answers it;
 * - a refused snapshot stream ends with etcd's raw auth error (code Unknown, `auth: …`);
 * - lease keep-alives, lease lists, member lists, status and authenticate need nothing.
 */
import type { AuthGate, Caller } from '../auth/gate.js';
import { fail, type Result } from '../errors/domain-error.js';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { toStatus } from './grpc/error-table.js';
import { deniedWatchCreate } from './grpc/watch-denied.js';
import type { MaintenanceService, Services, WatchService } from './services.js';

/** Who is calling, asked at each call; undefined when nothing is known of the caller. */
export type CallerNow = () => Caller | undefined;

type Fn<Req, Res> = (req: Req) => Promise<Result<Res>>;

const K = '/etcdserverpb.KV/';
const L = '/etcdserverpb.Lease/';
const C = '/etcdserverpb.Cluster/';
const M = '/etcdserverpb.Maintenance/';
const A = '/etcdserverpb.Auth/';

export function callerServices(gate: AuthGate, s: Services, callerNow: CallerNow): Services {
  /** Whether a call by `caller` is to be looked at (auth on, or a token came). */
  const looked = (caller: Caller | undefined): boolean => gate.active() || caller?.token !== undefined;
  const checked = <Req, Res>(path: string, fn: Fn<Req, Res>): Fn<Req, Res> =>
    async (req) => {
      const caller = callerNow();
      if (!looked(caller)) return fn(req);
      const e = await gate.check(path, req, caller ?? {});
      return e === undefined ? fn(req) : fail(e);
    };
  const guardWatch = (watch: WatchService): WatchService => ({
    openWatch(send, flow) {
      const session = watch.openWatch(send, flow);
      const caller = callerNow() ?? {};
      let queue: Promise<void> = Promise.resolve();
      return {
        request(req: pb.WatchRequest) {
          if (!looked(caller)) return session.request(req);
          if (req.requestUnion?.$case !== 'createRequest') return session.request(req);
          const create = req.requestUnion.value;
          queue = queue.then(async () => {
            const e = await gate.checkWatch(create, caller);
            if (e === undefined) return session.request(req);
            send(deniedWatchCreate(gate.header(), e));
          });
        },
        close: () => session.close(),
      };
    },
  });
  const guardSnapshot = (m: MaintenanceService) =>
    (r: pb.SnapshotRequest): AsyncIterable<pb.SnapshotResponse> => {
      const caller = callerNow() ?? {};
      return (async function* () {
        if (looked(caller)) {
          const e = await gate.check(`${M}Snapshot`, r, caller);
          if (e !== undefined) throw new Error(e.kind === 'Internal' ? e.message : toStatus(e).message);
        }
        yield* m.snapshot(r);
      })();
    };
  const { kv, lease, cluster, maintenance: m, auth } = s;
  const guardedSnapshot = guardSnapshot(m);
  return {
    ...s,
    kv: {
      range: checked(`${K}Range`, (r) => kv.range(r)),
      put: checked(`${K}Put`, (r) => kv.put(r)),
      deleteRange: checked(`${K}DeleteRange`, (r) => kv.deleteRange(r)),
      txn: checked(`${K}Txn`, (r) => kv.txn(r)),
      compact: checked(`${K}Compact`, (r) => kv.compact(r)),
    },
    watch: guardWatch(s.watch),
    lease: {
      ...lease,
      leaseGrant: checked(`${L}LeaseGrant`, (r) => lease.leaseGrant(r)),
      leaseRevoke: checked(`${L}LeaseRevoke`, (r) => lease.leaseRevoke(r)),
      leaseTimeToLive: checked(`${L}LeaseTimeToLive`, (r) => lease.leaseTimeToLive(r)),
      leaseLeases: (r) => lease.leaseLeases(r),
      keepAlive: (r) => lease.keepAlive(r),
    },
    cluster: {
      memberAdd: checked(`${C}MemberAdd`, (r) => cluster.memberAdd(r)),
      memberRemove: checked(`${C}MemberRemove`, (r) => cluster.memberRemove(r)),
      memberUpdate: checked(`${C}MemberUpdate`, (r) => cluster.memberUpdate(r)),
      memberList: (r) => cluster.memberList(r),
      memberPromote: checked(`${C}MemberPromote`, (r) => cluster.memberPromote(r)),
    },
    maintenance: {
      ...m,
      alarm: checked(`${M}Alarm`, (r) => m.alarm(r)),
      status: (r) => m.status(r),
      defragment: checked(`${M}Defragment`, (r) => m.defragment(r)),
      hash: checked(`${M}Hash`, (r) => m.hash(r)),
      hashKV: checked(`${M}HashKV`, (r) => m.hashKV(r)),
      snapshot: (r) => guardedSnapshot(r),
      moveLeader: (r) => m.moveLeader(r),
    },
    auth:
      auth === undefined
        ? undefined
        : {
            authEnable: checked(`${A}AuthEnable`, (r) => auth.authEnable(r)),
            authDisable: checked(`${A}AuthDisable`, (r) => auth.authDisable(r)),
            authStatus: (r) => auth.authStatus(r),
            authenticate: (r) => auth.authenticate(r),
            userAdd: checked(`${A}UserAdd`, (r) => auth.userAdd(r)),
            userGet: checked(`${A}UserGet`, (r) => auth.userGet(r)),
            userList: checked(`${A}UserList`, (r) => auth.userList(r)),
            userDelete: checked(`${A}UserDelete`, (r) => auth.userDelete(r)),
            userChangePassword: checked(`${A}UserChangePassword`, (r) => auth.userChangePassword(r)),
            userGrantRole: checked(`${A}UserGrantRole`, (r) => auth.userGrantRole(r)),
            userRevokeRole: checked(`${A}UserRevokeRole`, (r) => auth.userRevokeRole(r)),
            roleAdd: checked(`${A}RoleAdd`, (r) => auth.roleAdd(r)),
            roleGet: checked(`${A}RoleGet`, (r) => auth.roleGet(r)),
            roleList: checked(`${A}RoleList`, (r) => auth.roleList(r)),
            roleDelete: checked(`${A}RoleDelete`, (r) => auth.roleDelete(r)),
            roleGrantPermission: checked(`${A}RoleGrantPermission`, (r) => auth.roleGrantPermission(r)),
            roleRevokePermission: checked(`${A}RoleRevokePermission`, (r) => auth.roleRevokePermission(r)),
          },
  };
}
