/**
 * V2AuthStore over an in-memory v2 store: where the records live, that every change is a
 * proposal (so it is replicated), the once-per-member creation of the auth directories, and
 * the enable/disable rules.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { V2AuthStore, type AuthResult } from '../../../server/v2auth/store.js';
import { emptyUser } from '../../../server/v2auth/types.js';
import { createMemoryPort, type MemoryPort } from '../v2store/memory-port.js';

const hasher = { hash: async (p: string) => `h:${p}`, compare: async (p: string, h: string) => h === `h:${p}` };

function authOn(port: MemoryPort): V2AuthStore {
  return new V2AuthStore({ read: (path) => port.read(path, { recursive: false, sorted: false }), propose: (req) => port.propose(req) }, hasher);
}

function value<T>(r: AuthResult<T>): T {
  if (!r.ok) assert.fail(`expected success, got ${JSON.stringify(r.error, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`);
  return r.value;
}

const refusalOf = <T>(r: AuthResult<T>): string => (r.ok || r.error.kind !== 'AuthRefusal' ? assert.fail('expected a refusal') : `${r.error.status} ${r.error.message}`);

void test('the first write of a member creates /2, /2/users, /2/roles and /2/enabled=false, then the record', async () => {
  const port = createMemoryPort();
  const auth = authOn(port);
  value(await auth.createUser({ ...emptyUser('alice'), password: 'pw' }));
  assert.deepEqual(
    port.proposals.map((p) => `${p.method} ${p.path} ${p.dir === true ? 'dir' : (p.value ?? '')} prevExist=${p.prevExist}`),
    [
      'PUT /2 dir prevExist=false',
      'PUT /2/users/ dir prevExist=false',
      'PUT /2/roles/ dir prevExist=false',
      'PUT /2/enabled false prevExist=false',
      'PUT /2/users/alice {"user":"alice","password":"h:pw","roles":null} prevExist=false',
    ],
  );
  value(await auth.createRole({ role: 'r', permissions: { kv: { read: ['/a'], write: null } } }));
  assert.equal(port.proposals.length, 6, 'the directories are made once per member');

  const other = authOn(port);
  value(await other.createRole({ role: 's', permissions: { kv: { read: null, write: null } } }));
  assert.equal(port.proposals.length, 11, 'another member makes sure again (creates that find the node are fine)');
  assert.deepEqual(value(await other.allRoles()), ['r', 'root', 's']);
  assert.deepEqual(value(await other.allUsers()), ['alice']);
});

void test('reads of users and roles are local unless quorum; missing ones are 404 with etcd text', async () => {
  const port = createMemoryPort();
  const auth = authOn(port);
  assert.deepEqual(value(await auth.allUsers()), []);
  assert.deepEqual(value(await auth.allRoles()), ['root']);
  assert.equal(refusalOf(await auth.getUser('x')), '404 auth: User x does not exist.');
  assert.equal(refusalOf(await auth.getRole('x', true)), '404 auth: Role x does not exist.');
  assert.equal(port.proposals.length, 1, 'only the quorum read went through the log');
  assert.equal(refusalOf(await auth.deleteUser('x')), '404 auth: User x does not exist');
  assert.equal(refusalOf(await auth.deleteRole('x')), "404 auth: Role x doesn't exist.");
});

void test('enable needs a root user, creates the guest role, and flips /2/enabled; disable flips it back', async () => {
  const port = createMemoryPort();
  const auth = authOn(port);
  assert.equal(refusalOf(await auth.disable()), '409 auth: already disabled');
  assert.equal(refusalOf(await auth.enable()), '409 auth: No root user available, please create one');
  const root = value(await auth.createUser({ ...emptyUser('root'), password: 'pw' }));
  assert.deepEqual(root.roles, ['root']);
  value(await auth.enable());
  assert.equal(auth.enabled(), true);
  assert.match(JSON.stringify(port.read('/2/enabled', { recursive: false, sorted: false }), (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)), /"value":"true"/);
  assert.deepEqual(value(await auth.getRole('guest')).permissions, { kv: { read: ['/*'], write: ['/*'] } });
  assert.equal(refusalOf(await auth.enable()), '409 auth: already enabled');
  assert.equal(refusalOf(await auth.deleteUser('root')), '403 auth: Cannot delete root user while auth is enabled.');
  value(await auth.disable());
  assert.equal(auth.enabled(), false);
  assert.equal(await auth.checkPassword(root, 'pw'), true);
  assert.equal(await auth.checkPassword(root, 'nope'), false);
});

void test('a failure to replicate is Internal, not a refusal', async () => {
  const port = createMemoryPort();
  const auth = authOn(port);
  port.failNext = { kind: 'Timeout' } as never;
  const r = await auth.createRole({ role: 'r', permissions: { kv: { read: null, write: null } } });
  assert.ok(!r.ok && r.error.kind === 'Internal');
});
