/**
 * The unary routes of the JSON gateway (ETCD-FACTS §4.1): path under the gateway prefix →
 * request/response message codecs → the Services call. All are `POST` with the request
 * message as JSON; the response is the message's gateway JSON (`toJSON`).
 *
 * Notes:
 * - the lease routes also answer under `/kv/lease/…` (both spellings exist in etcd 3.4/3.5);
 * - `/maintenance/hash` is Hash (in 3.4 it shadows HashKV); `/maintenance/hashkv` is HashKV (3.5).
 */
import * as pb from '../../../proto/gen/etcd/rpc.js';
import type { DomainError, Result } from '../../errors/domain-error.js';
import type { Services } from '../services.js';
import type { GatewayStatus } from './gateway-status.js';
import * as rq from './gateway-request-schemas.js';
import { decodeJsonText, type JsonMessageFns, type RequestCodec, type RequestFns } from './json-decode.js';
import type { MessageSchema } from './jsonpb-schema.js';

export type RouteOutcome =
  | { readonly kind: 'ok'; readonly json: unknown }
  /** refused by the gateway itself (e.g. malformed JSON) */
  | { readonly kind: 'status'; readonly status: GatewayStatus }
  | { readonly kind: 'domain'; readonly error: DomainError };

export interface UnaryRoute {
  /** Path under the gateway prefix, e.g. `/kv/range`. */
  readonly path: string;
  /** Full gRPC method name, e.g. `/etcdserverpb.KV/Range`. */
  readonly grpcMethod: string;
  /**
   * Decodes the body (refusing a message above `maxMessageBytes`), calls the service, encodes
   * the answer. `signal` aborts once the client is gone (a call that waits may give up). Rejects
   * only on broken invariants.
   */
  run(services: Services, body: string, maxMessageBytes?: number, signal?: AbortSignal): Promise<RouteOutcome>;
}

function unary<Req, Res>(
  path: string,
  grpcMethod: string,
  request: RequestCodec<Req>,
  response: JsonMessageFns<Res>,
  call: (services: Services, req: Req) => Promise<Result<Res>>,
): UnaryRoute {
  return {
    path,
    grpcMethod,
    async run(services, body, maxMessageBytes) {
      const decoded = decodeJsonText(request, body, { maxMessageBytes });
      if (!decoded.ok) return { kind: 'status', status: decoded.status };
      const result = await call(services, decoded.value);
      return result.ok ? { kind: 'ok', json: response.toJSON(result.value) } : { kind: 'domain', error: result.error };
    },
  };
}

/** A request's field table with its generated codec. */
const c = <T>(schema: MessageSchema, fns: RequestFns<T>): RequestCodec<T> => ({ schema, fns });

const KV = '/etcdserverpb.KV/';
const LEASE = '/etcdserverpb.Lease/';
const CLUSTER = '/etcdserverpb.Cluster/';
const MAINT = '/etcdserverpb.Maintenance/';

const revoke = (p: string): UnaryRoute =>
  unary(p, `${LEASE}LeaseRevoke`, c(rq.LeaseRevokeRequest, pb.LeaseRevokeRequest), pb.LeaseRevokeResponse, (s, r) => s.lease.leaseRevoke(r));
const timeToLive = (p: string): UnaryRoute =>
  unary(p, `${LEASE}LeaseTimeToLive`, c(rq.LeaseTimeToLiveRequest, pb.LeaseTimeToLiveRequest), pb.LeaseTimeToLiveResponse, (s, r) =>
    s.lease.leaseTimeToLive(r),
  );
const leases = (p: string): UnaryRoute =>
  unary(p, `${LEASE}LeaseLeases`, c(rq.LeaseLeasesRequest, pb.LeaseLeasesRequest), pb.LeaseLeasesResponse, (s, r) => s.lease.leaseLeases(r));

export const UNARY_ROUTES: readonly UnaryRoute[] = [
  unary('/kv/range', `${KV}Range`, c(rq.RangeRequest, pb.RangeRequest), pb.RangeResponse, (s, r) => s.kv.range(r)),
  unary('/kv/put', `${KV}Put`, c(rq.PutRequest, pb.PutRequest), pb.PutResponse, (s, r) => s.kv.put(r)),
  unary('/kv/deleterange', `${KV}DeleteRange`, c(rq.DeleteRangeRequest, pb.DeleteRangeRequest), pb.DeleteRangeResponse, (s, r) =>
    s.kv.deleteRange(r),
  ),
  unary('/kv/txn', `${KV}Txn`, c(rq.TxnRequest, pb.TxnRequest), pb.TxnResponse, (s, r) => s.kv.txn(r)),
  unary('/kv/compaction', `${KV}Compact`, c(rq.CompactionRequest, pb.CompactionRequest), pb.CompactionResponse, (s, r) => s.kv.compact(r)),

  unary('/lease/grant', `${LEASE}LeaseGrant`, c(rq.LeaseGrantRequest, pb.LeaseGrantRequest), pb.LeaseGrantResponse, (s, r) =>
    s.lease.leaseGrant(r),
  ),
  revoke('/lease/revoke'),
  revoke('/kv/lease/revoke'),
  timeToLive('/lease/timetolive'),
  timeToLive('/kv/lease/timetolive'),
  leases('/lease/leases'),
  leases('/kv/lease/leases'),

  unary('/cluster/member/add', `${CLUSTER}MemberAdd`, c(rq.MemberAddRequest, pb.MemberAddRequest), pb.MemberAddResponse, (s, r) =>
    s.cluster.memberAdd(r),
  ),
  unary('/cluster/member/remove', `${CLUSTER}MemberRemove`, c(rq.MemberRemoveRequest, pb.MemberRemoveRequest), pb.MemberRemoveResponse, (s, r) =>
    s.cluster.memberRemove(r),
  ),
  unary('/cluster/member/update', `${CLUSTER}MemberUpdate`, c(rq.MemberUpdateRequest, pb.MemberUpdateRequest), pb.MemberUpdateResponse, (s, r) =>
    s.cluster.memberUpdate(r),
  ),
  unary('/cluster/member/list', `${CLUSTER}MemberList`, c(rq.MemberListRequest, pb.MemberListRequest), pb.MemberListResponse, (s, r) =>
    s.cluster.memberList(r),
  ),
  unary(
    '/cluster/member/promote',
    `${CLUSTER}MemberPromote`,
    c(rq.MemberPromoteRequest, pb.MemberPromoteRequest),
    pb.MemberPromoteResponse,
    (s, r) => s.cluster.memberPromote(r),
  ),

  unary('/maintenance/alarm', `${MAINT}Alarm`, c(rq.AlarmRequest, pb.AlarmRequest), pb.AlarmResponse, (s, r) => s.maintenance.alarm(r)),
  unary('/maintenance/status', `${MAINT}Status`, c(rq.StatusRequest, pb.StatusRequest), pb.StatusResponse, (s, r) =>
    s.maintenance.status(r),
  ),
  unary('/maintenance/defragment', `${MAINT}Defragment`, c(rq.DefragmentRequest, pb.DefragmentRequest), pb.DefragmentResponse, (s, r) =>
    s.maintenance.defragment(r),
  ),
  unary('/maintenance/hash', `${MAINT}Hash`, c(rq.HashRequest, pb.HashRequest), pb.HashResponse, (s, r) => s.maintenance.hash(r)),
  unary('/maintenance/hashkv', `${MAINT}HashKV`, c(rq.HashKVRequest, pb.HashKVRequest), pb.HashKVResponse, (s, r) =>
    s.maintenance.hashKV(r),
  ),
  unary(
    '/maintenance/transfer-leadership',
    `${MAINT}MoveLeader`,
    c(rq.MoveLeaderRequest, pb.MoveLeaderRequest),
    pb.MoveLeaderResponse,
    (s, r) => s.maintenance.moveLeader(r),
  ),
];
