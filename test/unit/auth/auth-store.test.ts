// The auth store as a state machine: etcd's rules for users, roles, root, revisions and checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Permission_Type } from '../../../proto/gen/etcd/auth.js';
import { AuthStore, type AuthOutcome } from '../../../server/auth/auth-store.js';
import { PermType } from '../../../server/auth/permissions.js';
import { decodeRevision, decodeUser, REVISION_KEY } from '../../../server/auth/records.js';
import { Bucket } from '../../../server/storage/backend.js';

const b = (s: string): Buffer => Buffer.from(s);
const HASH = b('$2a$10$hash');
const errOf = (o: AuthOutcome): string | undefined => (o.ok ? undefined : o.error.kind);
const must = (o: AuthOutcome): AuthOutcome => {
  assert.equal(errOf(o), undefined);
  return o;
};

function withRoot(): AuthStore {
  const s = new AuthStore();
  must(s.userAdd('root', HASH, false));
  must(s.userGrantRole('root', 'root'));
  return s;
}

void test('the revision starts at 1 and grows with each change, not with enable or no-op grants', () => {
  const s = new AuthStore();
  assert.equal(s.revision, 1);
  const add = must(s.userAdd('root', HASH, false));
  assert.equal(s.revision, 2);
  assert.ok(add.ok);
  const revOp = add.ops.find((o) => o.bucket === Bucket.Auth && o.key.equals(REVISION_KEY));
  assert.ok(revOp && revOp.type === 'put');
  assert.equal(decodeRevision(revOp.value), 2);
  const userOp = add.ops.find((o) => o.bucket === Bucket.AuthUsers);
  assert.ok(userOp && userOp.type === 'put');
  assert.deepEqual(decodeUser(userOp.value).options, { noPassword: false });
  must(s.userGrantRole('root', 'root'));
  assert.equal(s.revision, 3);
  must(s.userGrantRole('root', 'root'));
  assert.equal(s.revision, 3);
  must(s.enable());
  assert.equal(s.revision, 3);
  must(s.disable());
  assert.equal(s.revision, 4);
});

void test('enable needs root with the root role', () => {
  const s = new AuthStore();
  assert.equal(errOf(s.enable()), 'RootUserNotExist');
  must(s.userAdd('root', HASH, false));
  assert.equal(errOf(s.enable()), 'RootRoleNotExist');
  must(s.userGrantRole('root', 'root'));
  must(s.enable());
  assert.equal(s.enabled, true);
});

void test('root is protected only while auth is enabled', () => {
  const s = withRoot();
  must(s.roleAdd('root'));
  must(s.enable());
  assert.equal(errOf(s.userDelete('root')), 'InvalidAuthMgmt');
  assert.equal(errOf(s.roleDelete('root')), 'InvalidAuthMgmt');
  assert.equal(errOf(s.userRevokeRole('root', 'root')), 'InvalidAuthMgmt');
  must(s.disable());
  must(s.userRevokeRole('root', 'root'));
  must(s.userDelete('root'));
});

void test('user and role errors', () => {
  const s = new AuthStore();
  assert.equal(errOf(s.userAdd('', HASH, false)), 'UserEmpty');
  must(s.userAdd('u', HASH, false));
  assert.equal(errOf(s.userAdd('u', HASH, false)), 'UserAlreadyExist');
  assert.equal(errOf(s.userDelete('x')), 'UserNotFound');
  assert.equal(errOf(s.userChangePassword('x', HASH)), 'UserNotFound');
  assert.equal(errOf(s.userGrantRole('x', 'r')), 'UserNotFound');
  assert.equal(errOf(s.userGrantRole('u', 'r')), 'RoleNotFound');
  assert.equal(errOf(s.userRevokeRole('u', 'r')), 'RoleNotGranted');
  assert.equal(errOf(s.roleAdd('')), 'RoleEmpty');
  must(s.roleAdd('r'));
  assert.equal(errOf(s.roleAdd('r')), 'RoleAlreadyExist');
  assert.equal(errOf(s.roleDelete('x')), 'RoleNotFound');
  assert.equal(errOf(s.roleGrantPermission('x', undefined)), 'RoleNotFound');
  assert.equal(errOf(s.roleGrantPermission('r', undefined)), 'PermissionNotGiven');
  assert.equal(errOf(s.roleRevokePermission('r', b('k'), b(''))), 'PermissionNotGranted');
  const before = s.revision;
  s.userAdd('u', HASH, false);
  assert.equal(s.revision, before, 'a failed change leaves the revision alone');
});

void test('roles stay sorted on users; permissions sorted by key; a re-grant changes only the type', () => {
  const s = new AuthStore();
  must(s.userAdd('u', HASH, false));
  for (const r of ['zeta', 'alpha', 'mid']) must(s.roleAdd(r));
  for (const r of ['zeta', 'alpha', 'mid']) must(s.userGrantRole('u', r));
  assert.deepEqual(s.user('u')!.roles, ['alpha', 'mid', 'zeta']);
  must(s.roleGrantPermission('alpha', { permType: Permission_Type.READ, key: b('m'), rangeEnd: b('') }));
  must(s.roleGrantPermission('alpha', { permType: Permission_Type.READ, key: b('a'), rangeEnd: b('b') }));
  must(s.roleGrantPermission('alpha', { permType: Permission_Type.WRITE, key: b('m'), rangeEnd: b('') }));
  assert.deepEqual(
    s.role('alpha')!.keyPermission.map((p) => [p.key.toString(), p.rangeEnd.toString(), p.permType]),
    [['a', 'b', Permission_Type.READ], ['m', '', Permission_Type.WRITE]],
  );
  must(s.roleDelete('mid'));
  assert.deepEqual(s.user('u')!.roles, ['alpha', 'zeta']);
  assert.deepEqual(s.roleNames(), ['alpha', 'zeta']);
});

void test('checks: nothing while disabled; UserEmpty, stale revision, denial, root passes', () => {
  const s = withRoot();
  must(s.userAdd('alice', HASH, false));
  must(s.roleAdd('reader'));
  must(s.roleGrantPermission('reader', { permType: Permission_Type.READ, key: b('k/'), rangeEnd: b('k0') }));
  must(s.userGrantRole('alice', 'reader'));
  assert.equal(s.checkKeys(undefined, b('x'), b(''), PermType.Write), undefined);
  assert.equal(s.checkAdmin(undefined), undefined);
  must(s.enable());
  const rev = s.revision;
  const alice = { username: 'alice', revision: rev };
  assert.equal(s.checkKeys(undefined, b('k/1'), b(''), PermType.Read)?.kind, 'UserEmpty');
  assert.equal(s.checkKeys(alice, b('k/1'), b(''), PermType.Read), undefined);
  assert.equal(s.checkKeys(alice, b('k/'), b('k0'), PermType.Read), undefined);
  assert.equal(s.checkKeys(alice, b('k/1'), b(''), PermType.Write)?.kind, 'PermissionDenied');
  assert.equal(s.checkKeys({ username: 'ghost', revision: rev }, b('k/1'), b(''), PermType.Read)?.kind, 'PermissionDenied');
  assert.equal(s.checkKeys({ username: 'root', revision: rev }, b('any'), Buffer.from([0]), PermType.Write), undefined);
  assert.equal(s.checkAdmin(alice)?.kind, 'PermissionDenied');
  assert.equal(s.checkAdmin({ username: 'ghost', revision: rev })?.kind, 'UserNotFound');
  assert.equal(s.checkAdmin({ username: '', revision: rev })?.kind, 'UserEmpty');
  assert.equal(s.checkAdmin({ username: 'root', revision: rev }), undefined);
  must(s.userRevokeRole('alice', 'reader'));
  assert.equal(s.checkKeys(alice, b('k/1'), b(''), PermType.Read)?.kind, 'AuthOldRevision');
  assert.equal(s.checkKeys({ ...alice, revision: s.revision }, b('k/1'), b(''), PermType.Read)?.kind, 'PermissionDenied');
});

void test('replace() takes a whole state; a missing revision reads as 1', () => {
  const s = withRoot();
  const copy = new AuthStore({ enabled: true, revision: 0, users: [s.user('root')!], roles: [] });
  assert.equal(copy.revision, 1);
  assert.equal(copy.enabled, true);
  assert.deepEqual(copy.userNames(), ['root']);
});
