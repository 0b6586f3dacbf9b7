/**
 * Auth for the JSON gateway: as etcd's gateway forwards the HTTP header `Authorization` as
 * the gRPC metadata `authorization`, every gateway call made while serving a request is
 * checked by the auth gate (server/auth/gate.ts) with that header as the caller's token.
 *
 * Shape: `wrapHandler` runs each HTTP request inside an AsyncLocalStorage scope holding its
 * caller (while auth is enabled, or when the request carries a token: etcd resolves a token
 * even then; otherwise the handler runs as is); `guard` wraps the services the gateway calls
 * so each unary call, and each watch create, asks the gate first (nothing while auth is
 * disabled and no token came); a refused snapshot stream ends with etcd's raw auth
 * error chunk. Lease keep-alives need nothing.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthGate, Caller } from '../../auth/gate.js';
import { fail, type Result } from '../../errors/domain-error.js';
import { toStatus } from '../grpc/error-table.js';
import { deniedWatchCreate } from '../grpc/watch-denied.js';
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import type { Services, WatchService } from '../services.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface GatewayAuth {
  wrapHandler(handler: Handler): Handler;
  guard(services: Services): Services;
}

type Fn<Req, Res> = (req: Req) => Promise<Result<Res>>;

export function gatewayAuth(gate: AuthGate): GatewayAuth {
  const callers = new AsyncLocalStorage<Caller>();
  const checked = <Req, Res>(path: string, fn: Fn<Req, Res>): Fn<Req, Res> =>
    async (req) => {
      const caller = callers.getStore();
      if (caller === undefined && !gate.active()) return fn(req);
      const e = await gate.check(path, req, caller ?? {});
      return e === undefined ? fn(req) : fail(e);
    };
  const guardWatch = (watch: WatchService): WatchService => ({
    openWatch(send, flow) {
      const session = watch.openWatch(send, flow);
      const caller = callers.getStore() ?? {};
      let queue: Promise<void> = Promise.resolve();
      return {
        request(req: pb.WatchRequest) {
          if (!gate.active() && caller.token === undefined) return session.request(req);
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
  /** Snapshot refusals end the stream with etcd's raw auth error (code Unknown, `auth: …`). */
  const guardSnapshot = (m: Services['maintenance']) =>
    (r: pb.SnapshotRequest): AsyncIterable<pb.SnapshotResponse> => {
      const caller = callers.getStore() ?? {};
      return (async function* () {
        if (gate.active() || caller.token !== undefined) {
          const e = await gate.check('/etcdserverpb.Maintenance/Snapshot', r, caller);
          if (e !== undefined) throw new Error(e.kind === 'Internal' ? e.message : toStatus(e).message);
        }
        yield* m.snapshot(r);
      })();
    };
  const K = '/etcdserverpb.KV/';
  const L = '/etcdserverpb.Lease/';
  const C = '/etcdserverpb.Cluster/';
  const M = '/etcdserverpb.Maintenance/';
  const A = '/etcdserverpb.Auth/';
  return {
    wrapHandler: (handler) => (req, res) => {
      const token = req.headers.authorization;
      const hasToken = token !== undefined && token !== '';
      if (!gate.active() && !hasToken) return handler(req, res);
      return callers.run({ token: hasToken ? token : undefined }, () => handler(req, res));
    },
    guard(s) {
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
    },
  };
}
