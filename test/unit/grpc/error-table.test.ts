// The domain error → gRPC status table: every kind has a row with etcd's exact text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorKind, type DomainError } from '../../../server/errors/domain-error.js';
import { toStatus } from '../../../server/api/grpc/error-table.js';
import { CODE_NAMES, GrpcCode, codeName } from '../../../server/api/grpc/codes.js';

const EXPECTED: ReadonlyArray<readonly [DomainError, number, string]> = [
  [{ kind: 'EmptyKey' }, 3, 'etcdserver: key is not provided'],
  [{ kind: 'KeyNotFound' }, 3, 'etcdserver: key not found'],
  [{ kind: 'ValueProvided' }, 3, 'etcdserver: value is provided'],
  [{ kind: 'LeaseProvided' }, 3, 'etcdserver: lease is provided'],
  [{ kind: 'TooManyOps' }, 3, 'etcdserver: too many operations in txn request'],
  [{ kind: 'DuplicateKey' }, 3, 'etcdserver: duplicate key given in txn request'],
  [{ kind: 'Compacted', compactRevision: 5n }, 11, 'etcdserver: mvcc: required revision has been compacted'],
  [{ kind: 'FutureRev', currentRevision: 5n }, 11, 'etcdserver: mvcc: required revision is a future revision'],
  [{ kind: 'NoSpace' }, 8, 'etcdserver: mvcc: database space exceeded'],
  [{ kind: 'LeaseNotFound' }, 5, 'etcdserver: requested lease not found'],
  [{ kind: 'LeaseExists' }, 9, 'etcdserver: lease already exists'],
  [{ kind: 'LeaseTTLTooLarge' }, 11, 'etcdserver: too large lease TTL'],
  [{ kind: 'RequestTooLarge' }, 3, 'etcdserver: request is too large'],
  [{ kind: 'TooManyRequests' }, 2, 'etcdserver: too many requests'],
  [{ kind: 'NoLeader' }, 14, 'etcdserver: no leader'],
  [{ kind: 'NotLeader' }, 9, 'etcdserver: not leader'],
  [{ kind: 'LeaderChanged' }, 14, 'etcdserver: leader changed'],
  [{ kind: 'NotCapable' }, 14, 'etcdserver: not capable'],
  [{ kind: 'Stopped' }, 14, 'etcdserver: server stopped'],
  [{ kind: 'Timeout' }, 14, 'etcdserver: request timed out'],
  [{ kind: 'Corrupt' }, 15, 'etcdserver: corrupt cluster'],
  [{ kind: 'MemberNotFound' }, 5, 'etcdserver: member not found'],
  [{ kind: 'BadLeaderTransferee' }, 9, 'etcdserver: bad leader transferee'],
  [{ kind: 'MemberIdExists' }, 9, 'etcdserver: member ID already exist'],
  [{ kind: 'PeerUrlExists' }, 9, 'etcdserver: Peer URLs already exists'],
  [{ kind: 'InvalidPeerUrls' }, 3, 'etcdserver: given member URLs are invalid'],
  [{ kind: 'Unhealthy' }, 14, 'etcdserver: unhealthy cluster'],
  [{ kind: 'NotEnoughStartedMembers' }, 2, 'etcdserver: re-configuration failed due to not enough started members'],
  [{ kind: 'NotALearner' }, 9, 'etcdserver: can only promote a learner member'],
  [{ kind: 'LearnerNotReady' }, 9, 'etcdserver: can only promote a learner member which is in sync with leader'],
  [{ kind: 'TooManyLearners' }, 9, 'etcdserver: too many learner members in cluster'],
  [{ kind: 'LeaderTransferTimeout' }, 2, 'etcdserver: request timed out, leader transfer took too long'],
  [{ kind: 'RpcNotSupportedForLearner' }, 14, 'etcdserver: rpc not supported for learner'],
  [{ kind: 'RootUserNotExist' }, 9, 'etcdserver: root user does not exist'],
  [{ kind: 'RootRoleNotExist' }, 9, 'etcdserver: root user does not have root role'],
  [{ kind: 'UserAlreadyExist' }, 9, 'etcdserver: user name already exists'],
  [{ kind: 'UserEmpty' }, 3, 'etcdserver: user name is empty'],
  [{ kind: 'UserNotFound' }, 9, 'etcdserver: user name not found'],
  [{ kind: 'RoleAlreadyExist' }, 9, 'etcdserver: role name already exists'],
  [{ kind: 'RoleNotFound' }, 9, 'etcdserver: role name not found'],
  [{ kind: 'RoleEmpty' }, 3, 'etcdserver: role name is empty'],
  [{ kind: 'AuthFailed' }, 3, 'etcdserver: authentication failed, invalid user ID or password'],
  [{ kind: 'PermissionNotGiven' }, 3, 'etcdserver: permission not given'],
  [{ kind: 'PermissionDenied' }, 7, 'etcdserver: permission denied'],
  [{ kind: 'RoleNotGranted' }, 9, 'etcdserver: role is not granted to the user'],
  [{ kind: 'PermissionNotGranted' }, 9, 'etcdserver: permission is not granted to the role'],
  [{ kind: 'AuthNotEnabled' }, 9, 'etcdserver: authentication is not enabled'],
  [{ kind: 'InvalidAuthToken' }, 16, 'etcdserver: invalid auth token'],
  [{ kind: 'InvalidAuthMgmt' }, 3, 'etcdserver: invalid auth management'],
  [{ kind: 'AuthOldRevision' }, 3, 'etcdserver: revision of auth store is old'],
  [{ kind: 'Unimplemented', method: '/etcdserverpb.Auth/UserAdd' }, 12, 'kvstore: not implemented: /etcdserverpb.Auth/UserAdd'],
  [{ kind: 'Internal', message: 'etcdserver: request cancelled' }, 2, 'etcdserver: request cancelled'],
  [{ kind: 'ElectionNoLeader' }, 2, 'election: no leader'],
  [{ kind: 'ElectionNotLeader' }, 2, 'election: not leader'],
  [{ kind: 'ElectionMissingLeaderKey' }, 2, '"leader" field must be provided'],
];

void test('every domain error kind maps to the exact etcd code and message', () => {
  for (const [error, code, message] of EXPECTED) {
    assert.deepEqual(toStatus(error), { code, message }, error.kind);
  }
});

void test('an error the member got through its own client travels as code Unknown with the cause message', () => {
  assert.deepEqual(toStatus({ kind: 'ViaClient', cause: { kind: 'LeaseNotFound' } }), { code: 2, message: 'etcdserver: requested lease not found' });
  assert.deepEqual(toStatus({ kind: 'ViaClient', cause: { kind: 'Compacted', compactRevision: 5n } }), {
    code: 2,
    message: 'etcdserver: mvcc: required revision has been compacted',
  });
});

void test('the expectations cover every kind', () => {
  const covered = new Set(EXPECTED.map(([e]) => e.kind));
  assert.deepEqual([...covered].sort(), Object.values(ErrorKind).sort());
});

void test('code names follow grpc-go spelling', () => {
  assert.equal(CODE_NAMES.length, 17);
  assert.equal(codeName(GrpcCode.OK), 'OK');
  assert.equal(codeName(GrpcCode.ResourceExhausted), 'ResourceExhausted');
  assert.equal(codeName(GrpcCode.Unauthenticated), 'Unauthenticated');
  assert.equal(codeName(99), 'Unknown');
});
