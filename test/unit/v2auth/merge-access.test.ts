/** The pure rules of etcd 3.4's v2 auth: user and role merges, key-path matching. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { hasKeyAccess, hasRecursiveAccess } from '../../../server/v2auth/access.js';
import { mergeRole, mergeUser, sameRole, sameUser, withRootRole } from '../../../server/v2auth/merge.js';
import { emptyUser, GUEST_ROLE, ROOT_ROLE, type V2Role, type V2User } from '../../../server/v2auth/types.js';

const user = (roles: string[] | null, over: Partial<V2User> = {}): V2User => ({ ...emptyUser('u'), password: 'h', roles, ...over });
const role = (read: string[] | null, write: string[] | null, over: Partial<V2Role> = {}): V2Role => ({ role: 'r', permissions: { kv: { read, write } }, ...over });

void test('mergeUser: grants and revokes, sorted, never nil; duplicates and ungranted roles are 409', () => {
  const m = mergeUser(user(['b']), { ...emptyUser('u'), grant: ['c', 'a'] }, undefined);
  assert.deepEqual(m, { ok: true, value: { user: 'u', password: 'h', roles: ['a', 'b', 'c'], grant: null, revoke: null } });
  assert.deepEqual(mergeUser(user(null), emptyUser('u'), undefined), { ok: true, value: { ...user([]), grant: null, revoke: null } });
  assert.deepEqual(mergeUser(user(['a']), { ...emptyUser('u'), grant: ['a'] }, undefined), {
    ok: false,
    error: { kind: 'AuthRefusal', status: 409, message: 'auth: Granting duplicate role a for user u' },
  });
  assert.deepEqual(mergeUser(user(['a']), { ...emptyUser('u'), revoke: ['z'] }, undefined), {
    ok: false,
    error: { kind: 'AuthRefusal', status: 409, message: 'auth: Revoking ungranted role z for user u' },
  });
  const withPassword = mergeUser(user(['a']), emptyUser('u'), 'h2');
  assert.ok(withPassword.ok && withPassword.value.password === 'h2');
});

void test('mergeUser: granting new roles then revoking them gives back the sorted roles (property)', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 8 }), fc.integer({ min: 0, max: 8 }), (names, cut) => {
      const before = names.slice(0, cut);
      const added = names.slice(cut);
      const granted = mergeUser(user(before), { ...emptyUser('u'), grant: added }, undefined);
      assert.ok(granted.ok);
      const revoked = mergeUser(granted.value, { ...emptyUser('u'), revoke: added }, undefined);
      assert.ok(revoked.ok);
      assert.deepEqual(revoked.value.roles, [...before].sort());
    }),
  );
});

void test('mergeRole: a side without grant/revoke keeps nil lists; duplicates 409; revoking the absent is ignored', () => {
  assert.deepEqual(mergeRole(role(['/a'], null), { ...role(null, null), grant: { kv: { read: ['/b'], write: null } } }), {
    ok: true,
    value: { role: 'r', permissions: { kv: { read: ['/a', '/b'], write: [] } } },
  });
  assert.deepEqual(mergeRole(role(['/a'], null), { ...role(null, null), revoke: { kv: { read: ['/zz'], write: ['/q'] } } }), {
    ok: true,
    value: { role: 'r', permissions: { kv: { read: ['/a'], write: [] } } },
  });
  assert.deepEqual(mergeRole(role(['/a'], null), { ...role(null, null), grant: { kv: { read: null, write: ['/w', '/w'] } } }), {
    ok: false,
    error: { kind: 'AuthRefusal', status: 409, message: 'auth: Granting duplicate write permission /w' },
  });
});

void test('sameUser / sameRole tell a nil list from an empty one, as reflect.DeepEqual', () => {
  assert.equal(sameUser(user(null), user([])), false);
  assert.equal(sameUser(user(['a']), user(['a'])), true);
  assert.equal(sameRole(role(null, []), role([], [])), false);
  assert.equal(sameRole(role(['/a'], []), { ...role(['/a'], []), grant: { kv: { read: null, write: null } } }), false);
});

void test('withRootRole: only the user named root gets the root role, once', () => {
  assert.deepEqual(withRootRole({ ...emptyUser('root') }).roles, ['root']);
  assert.deepEqual(withRootRole({ ...emptyUser('root'), roles: ['x', 'root'] }).roles, ['x', 'root']);
  assert.equal(withRootRole(emptyUser('bob')).roles, null);
});

void test('key access: `*` patterns are prefixes, others exact; recursive needs a `*` pattern; root has all', () => {
  const r = role(['/foo/*', '/bar'], ['/w*']);
  assert.equal(hasKeyAccess(r, '/foo/x', false), true);
  assert.equal(hasKeyAccess(r, '/foo/', false), true);
  assert.equal(hasKeyAccess(r, '/foo', false), false);
  assert.equal(hasKeyAccess(r, '/bar', false), true);
  assert.equal(hasKeyAccess(r, '/bar/x', false), false);
  assert.equal(hasKeyAccess(r, '/bar', true), false);
  assert.equal(hasKeyAccess(r, '/wx', true), true);
  assert.equal(hasRecursiveAccess(r, '/bar', false), false);
  assert.equal(hasRecursiveAccess(r, '/foo/', false), true);
  assert.equal(hasRecursiveAccess(r, '/foo', false), false);
  assert.equal(hasKeyAccess(ROOT_ROLE, '/anything', true), true);
  assert.equal(hasRecursiveAccess({ ...GUEST_ROLE, permissions: { kv: { read: null, write: null } } }, '/a', false), false);
});
