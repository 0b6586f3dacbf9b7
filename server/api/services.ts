/**
 * The API as plain async functions: one implementation of every RPC, shared by the gRPC
 * adapter (api/grpc) and the JSON gateway (api/http/gateway). Handlers return domain
 * errors as values; each edge maps them once (api/grpc/error-table.ts).
 *
 * Streams are modelled without transport types:
 * - watch: `openWatch(send)` returns a session; the edge feeds it requests and closes it;
 * - lease keep-alive: one request → one response (`keepAlive`), the edge loops;
 * - snapshot: an async iterable of response chunks.
 */
import type * as pb from '../../proto/gen/etcd/rpc.js';
import type { Result } from '../errors/domain-error.js';
import type { SnapshotImage } from '../snapshot/stream.js';

export interface WatchSession {
  /** Handles one client request of the stream (create, cancel, progress). */
  request(req: pb.WatchRequest): void;
  /** Ends the session and all its watchers. Idempotent. */
  close(): void;
}

export interface KvService {
  range(req: pb.RangeRequest): Promise<Result<pb.RangeResponse>>;
  put(req: pb.PutRequest): Promise<Result<pb.PutResponse>>;
  deleteRange(req: pb.DeleteRangeRequest): Promise<Result<pb.DeleteRangeResponse>>;
  txn(req: pb.TxnRequest): Promise<Result<pb.TxnResponse>>;
  compact(req: pb.CompactionRequest): Promise<Result<pb.CompactionResponse>>;
}

/** Transport flow control an edge can offer: resolves once its send buffer drained (or the stream ended). */
export interface WatchFlow {
  drained(): Promise<void>;
}

export interface WatchService {
  /**
   * `send` is called for every response, in order; the session never calls it after close().
   * With `flow`, `send` returning false means the transport is over its bound: the session
   * holds later responses until `flow.drained()` resolves (nothing is dropped either way).
   */
  openWatch(send: (resp: pb.WatchResponse) => boolean | void, flow?: WatchFlow): WatchSession;
}

export interface LeaseService {
  leaseGrant(req: pb.LeaseGrantRequest): Promise<Result<pb.LeaseGrantResponse>>;
  leaseRevoke(req: pb.LeaseRevokeRequest): Promise<Result<pb.LeaseRevokeResponse>>;
  keepAlive(req: pb.LeaseKeepAliveRequest): Promise<Result<pb.LeaseKeepAliveResponse>>;
  leaseTimeToLive(req: pb.LeaseTimeToLiveRequest): Promise<Result<pb.LeaseTimeToLiveResponse>>;
  leaseLeases(req: pb.LeaseLeasesRequest): Promise<Result<pb.LeaseLeasesResponse>>;
}

export interface ClusterService {
  memberAdd(req: pb.MemberAddRequest): Promise<Result<pb.MemberAddResponse>>;
  memberRemove(req: pb.MemberRemoveRequest): Promise<Result<pb.MemberRemoveResponse>>;
  memberUpdate(req: pb.MemberUpdateRequest): Promise<Result<pb.MemberUpdateResponse>>;
  memberList(req: pb.MemberListRequest): Promise<Result<pb.MemberListResponse>>;
  memberPromote(req: pb.MemberPromoteRequest): Promise<Result<pb.MemberPromoteResponse>>;
}

export interface MaintenanceService {
  alarm(req: pb.AlarmRequest): Promise<Result<pb.AlarmResponse>>;
  status(req: pb.StatusRequest): Promise<Result<pb.StatusResponse>>;
  defragment(req: pb.DefragmentRequest): Promise<Result<pb.DefragmentResponse>>;
  hash(req: pb.HashRequest): Promise<Result<pb.HashResponse>>;
  hashKV(req: pb.HashKVRequest): Promise<Result<pb.HashKVResponse>>;
  /** Chunks of the consistent image, then one chunk whose blob is the SHA-256 of all previous blobs. */
  snapshot(req: pb.SnapshotRequest): AsyncIterable<pb.SnapshotResponse>;
  /**
   * The same image for a sender that frames it itself (the gRPC stream served on
   * HTTP/2 directly); absent: every Snapshot call takes `snapshot`.
   */
  snapshotImage?(req: pb.SnapshotRequest): Promise<SnapshotImage>;
  moveLeader(req: pb.MoveLeaderRequest): Promise<Result<pb.MoveLeaderResponse>>;
}

export interface AuthService {
  authEnable(req: pb.AuthEnableRequest): Promise<Result<pb.AuthEnableResponse>>;
  authDisable(req: pb.AuthDisableRequest): Promise<Result<pb.AuthDisableResponse>>;
  authStatus(req: pb.AuthStatusRequest): Promise<Result<pb.AuthStatusResponse>>;
  authenticate(req: pb.AuthenticateRequest): Promise<Result<pb.AuthenticateResponse>>;
  userAdd(req: pb.AuthUserAddRequest): Promise<Result<pb.AuthUserAddResponse>>;
  userGet(req: pb.AuthUserGetRequest): Promise<Result<pb.AuthUserGetResponse>>;
  userList(req: pb.AuthUserListRequest): Promise<Result<pb.AuthUserListResponse>>;
  userDelete(req: pb.AuthUserDeleteRequest): Promise<Result<pb.AuthUserDeleteResponse>>;
  userChangePassword(req: pb.AuthUserChangePasswordRequest): Promise<Result<pb.AuthUserChangePasswordResponse>>;
  userGrantRole(req: pb.AuthUserGrantRoleRequest): Promise<Result<pb.AuthUserGrantRoleResponse>>;
  userRevokeRole(req: pb.AuthUserRevokeRoleRequest): Promise<Result<pb.AuthUserRevokeRoleResponse>>;
  roleAdd(req: pb.AuthRoleAddRequest): Promise<Result<pb.AuthRoleAddResponse>>;
  roleGet(req: pb.AuthRoleGetRequest): Promise<Result<pb.AuthRoleGetResponse>>;
  roleList(req: pb.AuthRoleListRequest): Promise<Result<pb.AuthRoleListResponse>>;
  roleDelete(req: pb.AuthRoleDeleteRequest): Promise<Result<pb.AuthRoleDeleteResponse>>;
  roleGrantPermission(req: pb.AuthRoleGrantPermissionRequest): Promise<Result<pb.AuthRoleGrantPermissionResponse>>;
  roleRevokePermission(req: pb.AuthRoleRevokePermissionRequest): Promise<Result<pb.AuthRoleRevokePermissionResponse>>;
}

/** What the member's HTTP endpoints need besides the RPCs. */
export interface MemberInfo {
  /** Binary version, e.g. "3.5.0". */
  readonly serverVersion: string;
  /** Cluster version major.minor.0, or "not_decided". */
  clusterVersion(): string;
  /** Health as /health reports it. */
  health(): Promise<{ readonly healthy: boolean; readonly reason: string }>;
}

export interface Services {
  readonly kv: KvService;
  readonly watch: WatchService;
  readonly lease: LeaseService;
  readonly cluster: ClusterService;
  readonly maintenance: MaintenanceService;
  /** Absent: the Auth service answers Unimplemented. */
  readonly auth?: AuthService;
  readonly info: MemberInfo;
}
