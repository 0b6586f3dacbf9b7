/**
 * THE table mapping every domain error kind to a gRPC code and etcd's exact message.
 *
 * Clients recognise errors by message text (clientv3's rpctypes table), so the strings
 * below are part of the wire contract and must match etcd byte for byte.
 * Quirks kept on purpose (ETCD-FACTS §2.2): `TooManyRequests` travels as code Unknown (2),
 * as do unmapped internal failures (`Internal` carries its own message).
 * `Unimplemented` (our own, not etcd's) is code 12 with a message naming the method.
 *
 * Adding a DomainError kind without a row here is a compile error (the table is a
 * Record over every kind).
 */
import type { DomainError, ErrorKind } from '../../errors/domain-error.js';
import { GrpcCode, type GrpcStatus } from './codes.js';

const TABLE: { readonly [K in ErrorKind]: GrpcStatus } = {
  EmptyKey: { code: GrpcCode.InvalidArgument, message: 'etcdserver: key is not provided' },
  KeyNotFound: { code: GrpcCode.InvalidArgument, message: 'etcdserver: key not found' },
  ValueProvided: { code: GrpcCode.InvalidArgument, message: 'etcdserver: value is provided' },
  LeaseProvided: { code: GrpcCode.InvalidArgument, message: 'etcdserver: lease is provided' },
  TooManyOps: { code: GrpcCode.InvalidArgument, message: 'etcdserver: too many operations in txn request' },
  DuplicateKey: { code: GrpcCode.InvalidArgument, message: 'etcdserver: duplicate key given in txn request' },
  Compacted: { code: GrpcCode.OutOfRange, message: 'etcdserver: mvcc: required revision has been compacted' },
  FutureRev: { code: GrpcCode.OutOfRange, message: 'etcdserver: mvcc: required revision is a future revision' },
  NoSpace: { code: GrpcCode.ResourceExhausted, message: 'etcdserver: mvcc: database space exceeded' },
  LeaseNotFound: { code: GrpcCode.NotFound, message: 'etcdserver: requested lease not found' },
  LeaseExists: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: lease already exists' },
  LeaseTTLTooLarge: { code: GrpcCode.OutOfRange, message: 'etcdserver: too large lease TTL' },
  RequestTooLarge: { code: GrpcCode.InvalidArgument, message: 'etcdserver: request is too large' },
  // etcd maps this to a client-side error value without a status: it arrives as Unknown.
  TooManyRequests: { code: GrpcCode.Unknown, message: 'etcdserver: too many requests' },
  NoLeader: { code: GrpcCode.Unavailable, message: 'etcdserver: no leader' },
  NotLeader: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: not leader' },
  LeaderChanged: { code: GrpcCode.Unavailable, message: 'etcdserver: leader changed' },
  NotCapable: { code: GrpcCode.Unavailable, message: 'etcdserver: not capable' },
  Stopped: { code: GrpcCode.Unavailable, message: 'etcdserver: server stopped' },
  Timeout: { code: GrpcCode.Unavailable, message: 'etcdserver: request timed out' },
  Corrupt: { code: GrpcCode.DataLoss, message: 'etcdserver: corrupt cluster' },
  MemberNotFound: { code: GrpcCode.NotFound, message: 'etcdserver: member not found' },
  BadLeaderTransferee: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: bad leader transferee' },
  MemberIdExists: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: member ID already exist' },
  PeerUrlExists: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: Peer URLs already exists' },
  InvalidPeerUrls: { code: GrpcCode.InvalidArgument, message: 'etcdserver: given member URLs are invalid' },
  // Strict reconfiguration refused: the local member is not connected to enough voters.
  Unhealthy: { code: GrpcCode.Unavailable, message: 'etcdserver: unhealthy cluster' },
  // A client-side error value in the reference table: it travels with code Unknown.
  NotEnoughStartedMembers: { code: GrpcCode.Unknown, message: 'etcdserver: re-configuration failed due to not enough started members' },
  NotALearner: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: can only promote a learner member' },
  LearnerNotReady: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: can only promote a learner member which is in sync with leader' },
  TooManyLearners: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: too many learner members in cluster' },
  LeaderTransferTimeout: { code: GrpcCode.Unknown, message: 'etcdserver: request timed out, leader transfer took too long' },
  RpcNotSupportedForLearner: { code: GrpcCode.Unavailable, message: 'etcdserver: rpc not supported for learner' },
  RootUserNotExist: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: root user does not exist' },
  RootRoleNotExist: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: root user does not have root role' },
  UserAlreadyExist: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: user name already exists' },
  UserEmpty: { code: GrpcCode.InvalidArgument, message: 'etcdserver: user name is empty' },
  UserNotFound: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: user name not found' },
  RoleAlreadyExist: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: role name already exists' },
  RoleNotFound: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: role name not found' },
  RoleEmpty: { code: GrpcCode.InvalidArgument, message: 'etcdserver: role name is empty' },
  AuthFailed: { code: GrpcCode.InvalidArgument, message: 'etcdserver: authentication failed, invalid user ID or password' },
  PermissionNotGiven: { code: GrpcCode.InvalidArgument, message: 'etcdserver: permission not given' },
  PermissionDenied: { code: GrpcCode.PermissionDenied, message: 'etcdserver: permission denied' },
  RoleNotGranted: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: role is not granted to the user' },
  PermissionNotGranted: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: permission is not granted to the role' },
  AuthNotEnabled: { code: GrpcCode.FailedPrecondition, message: 'etcdserver: authentication is not enabled' },
  InvalidAuthToken: { code: GrpcCode.Unauthenticated, message: 'etcdserver: invalid auth token' },
  InvalidAuthMgmt: { code: GrpcCode.InvalidArgument, message: 'etcdserver: invalid auth management' },
  AuthOldRevision: { code: GrpcCode.InvalidArgument, message: 'etcdserver: revision of auth store is old' },
  // clientv3/concurrency's plain errors, returned by the Election service: code Unknown.
  ElectionNoLeader: { code: GrpcCode.Unknown, message: 'election: no leader' },
  ElectionNotLeader: { code: GrpcCode.Unknown, message: 'election: not leader' },
  ElectionMissingLeaderKey: { code: GrpcCode.Unknown, message: '"leader" field must be provided' },
  // Message replaced per error (see toStatus).
  Unimplemented: { code: GrpcCode.Unimplemented, message: 'kvstore: not implemented' },
  Internal: { code: GrpcCode.Unknown, message: 'etcdserver: internal error' },
};

/** The gRPC status (code + exact etcd message) a domain error is sent as. Total over every kind. */
export function toStatus(e: DomainError): GrpcStatus {
  switch (e.kind) {
    case 'Internal':
      return { code: TABLE.Internal.code, message: e.message };
    case 'Unimplemented':
      return { code: TABLE.Unimplemented.code, message: `kvstore: not implemented: ${e.method}` };
    case 'ViaClient':
      // the member's own client turned the cause into a plain error: code Unknown, its message
      return { code: GrpcCode.Unknown, message: toStatus(e.cause).message };
    default:
      return TABLE[e.kind];
  }
}
