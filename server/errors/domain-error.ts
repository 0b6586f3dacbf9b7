/**
 * Domain errors: the expected failures of the store, as values.
 *
 * Every layer returns these (never throws them); the API edges translate each kind
 * to a gRPC status and etcd's exact message through ONE table (api/grpc/error-table.ts)
 * and to an HTTP status through the gateway. `throw` is reserved for broken invariants.
 */
export const ErrorKind = {
  EmptyKey: 'EmptyKey',
  KeyNotFound: 'KeyNotFound',
  ValueProvided: 'ValueProvided',
  LeaseProvided: 'LeaseProvided',
  TooManyOps: 'TooManyOps',
  DuplicateKey: 'DuplicateKey',
  Compacted: 'Compacted',
  FutureRev: 'FutureRev',
  NoSpace: 'NoSpace',
  LeaseNotFound: 'LeaseNotFound',
  LeaseExists: 'LeaseExists',
  LeaseTTLTooLarge: 'LeaseTTLTooLarge',
  RequestTooLarge: 'RequestTooLarge',
  TooManyRequests: 'TooManyRequests',
  NoLeader: 'NoLeader',
  NotLeader: 'NotLeader',
  LeaderChanged: 'LeaderChanged',
  NotCapable: 'NotCapable',
  Stopped: 'Stopped',
  Timeout: 'Timeout',
  Corrupt: 'Corrupt',
  MemberNotFound: 'MemberNotFound',
  MemberIdExists: 'MemberIdExists',
  PeerUrlExists: 'PeerUrlExists',
  InvalidPeerUrls: 'InvalidPeerUrls',
  NotEnoughStartedMembers: 'NotEnoughStartedMembers',
  NotALearner: 'NotALearner',
  LearnerNotReady: 'LearnerNotReady',
  TooManyLearners: 'TooManyLearners',
  LeaderTransferTimeout: 'LeaderTransferTimeout',
  RpcNotSupportedForLearner: 'RpcNotSupportedForLearner',
  BadLeaderTransferee: 'BadLeaderTransferee',
  Unhealthy: 'Unhealthy',
  // auth (server/auth)
  RootUserNotExist: 'RootUserNotExist',
  RootRoleNotExist: 'RootRoleNotExist',
  UserAlreadyExist: 'UserAlreadyExist',
  UserEmpty: 'UserEmpty',
  UserNotFound: 'UserNotFound',
  RoleAlreadyExist: 'RoleAlreadyExist',
  RoleNotFound: 'RoleNotFound',
  RoleEmpty: 'RoleEmpty',
  AuthFailed: 'AuthFailed',
  PermissionNotGiven: 'PermissionNotGiven',
  PermissionDenied: 'PermissionDenied',
  RoleNotGranted: 'RoleNotGranted',
  PermissionNotGranted: 'PermissionNotGranted',
  AuthNotEnabled: 'AuthNotEnabled',
  InvalidAuthToken: 'InvalidAuthToken',
  InvalidAuthMgmt: 'InvalidAuthMgmt',
  AuthOldRevision: 'AuthOldRevision',
  // election recipe (api/service/election-service.ts): etcd's clientv3/concurrency errors
  ElectionNoLeader: 'ElectionNoLeader',
  ElectionNotLeader: 'ElectionNotLeader',
  ElectionMissingLeaderKey: 'ElectionMissingLeaderKey',
  Unimplemented: 'Unimplemented',
  Internal: 'Internal',
} as const;
export type ErrorKind = (typeof ErrorKind)[keyof typeof ErrorKind];

export type DomainError =
  | { readonly kind: 'Compacted'; readonly compactRevision: bigint }
  | { readonly kind: 'FutureRev'; readonly currentRevision: bigint }
  | { readonly kind: 'Internal'; readonly message: string }
  | { readonly kind: 'Unimplemented'; readonly method: string }
  /**
   * An error a service built on the member's own client got from the call it made (etcd's
   * v3election/v3lock servers use an in-process clientv3, which turns a known status into a
   * plain error value): it travels as code Unknown with the cause's message.
   */
  | { readonly kind: 'ViaClient'; readonly cause: DomainError }
  | { readonly kind: Exclude<ErrorKind, 'Compacted' | 'FutureRev' | 'Internal' | 'Unimplemented'> };

/** Outcome of an operation that can fail in an expected way. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: DomainError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: DomainError): Result<T> => ({ ok: false, error });
export const err = <T = never>(kind: Exclude<ErrorKind, 'Compacted' | 'FutureRev' | 'Internal' | 'Unimplemented'>): Result<T> => ({
  ok: false,
  error: { kind },
});
