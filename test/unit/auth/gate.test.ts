// The edge gate: identity from a token or a client certificate, then the call's requirements.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Permission_Type } from '../../../proto/gen/etcd/auth.js';
import { AuthStore } from '../../../server/auth/auth-store.js';
import { AuthGate } from '../../../server/auth/gate.js';
import { SimpleTokens } from '../../../server/auth/simple-tokens.js';
import { applyAuth } from '../../../server/apply/auth-apply.js';

const b = (s: string): Buffer => Buffer.from(s);
const header = { clusterId: 0n, memberId: 0n, revision: 1n, raftTerm: 0n };

function setup(clientCertAuth = false) {
  const store = new AuthStore();
  store.userAdd('root', b('h'), false);
  store.userGrantRole('root', 'root');
  store.userAdd('alice', b('h'), false);
  store.roleAdd('r');
  store.roleGrantPermission('r', { permType: Permission_Type.READ, key: b('k'), rangeEnd: b('') });
  store.userGrantRole('alice', 'r');
  const simple = new SimpleTokens(60_000, () => 0);
  const gate = new AuthGate({ store, tokens: { kind: 'simple', simple }, leaseKeys: () => [b('lk')], requirements: { leaseTimeToLiveKeys: true }, clientCertAuth, header: () => header });
  return { store, simple, gate };
}

const RANGE = '/etcdserverpb.KV/Range';

void test('nothing is checked while auth is disabled', async () => {
  const { gate } = setup();
  assert.equal(gate.active(), false);
  assert.equal(await gate.check(RANGE, { key: b('x'), rangeEnd: b('') }, {}), undefined);
});

void test('while auth is disabled a token sent anyway is resolved: unknown → InvalidAuthToken (raw on Maintenance)', async () => {
  const { gate, simple } = setup();
  simple.assign('tok', 'alice');
  assert.equal((await gate.check(RANGE, { key: b('x'), rangeEnd: b('') }, { token: 'bad' }))?.kind, 'InvalidAuthToken');
  assert.equal(await gate.check(RANGE, { key: b('x'), rangeEnd: b('') }, { token: 'tok' }), undefined);
  assert.deepEqual(await gate.check('/etcdserverpb.Maintenance/Alarm', {}, { token: 'bad' }), { kind: 'Internal', message: 'auth: invalid auth token' });
  assert.equal(await gate.check('/etcdserverpb.Maintenance/Status', {}, { token: 'bad' }), undefined);
  assert.equal((await gate.checkWatch({ key: b('k'), rangeEnd: b('') } as never, { token: 'bad' }))?.kind, 'InvalidAuthToken');
  assert.equal(await gate.checkWatch({ key: b('k'), rangeEnd: b('') } as never, {}), undefined);
});

void test('tokens: unknown → InvalidAuthToken; none → UserEmpty; valid → the user\'s permissions', async () => {
  const { store, simple, gate } = setup();
  store.enable();
  simple.assign('tok', 'alice');
  assert.equal((await gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, { token: 'bad' }))?.kind, 'InvalidAuthToken');
  assert.equal((await gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, {}))?.kind, 'UserEmpty');
  assert.equal(await gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, { token: 'tok' }), undefined);
  assert.equal((await gate.check(RANGE, { key: b('j'), rangeEnd: b('') }, { token: 'tok' }))?.kind, 'PermissionDenied');
  assert.equal((await gate.check('/etcdserverpb.Lease/LeaseRevoke', { ID: 5n }, { token: 'tok' }))?.kind, 'PermissionDenied');
  assert.equal((await gate.check('/etcdserverpb.Lease/LeaseGrant', { ID: 5n }, { token: 'bad' }))?.kind, 'InvalidAuthToken', 'etcd resolves the token of every proposal');
  assert.equal(await gate.check('/etcdserverpb.Lease/LeaseGrant', { ID: 5n }, { token: 'tok' }), undefined);
  assert.equal(await gate.check('/etcdserverpb.Cluster/MemberList', {}, { token: 'bad' }), undefined, 'paths etcd never resolves a token for');
});

void test('maintenance refusals are raw auth errors (code Unknown in etcd)', async () => {
  const { store, simple, gate } = setup();
  store.enable();
  simple.assign('tok', 'alice');
  assert.deepEqual(await gate.check('/etcdserverpb.Maintenance/Defragment', {}, { token: 'tok' }), { kind: 'Internal', message: 'auth: permission denied' });
  assert.deepEqual(await gate.check('/etcdserverpb.Cluster/MemberAdd', {}, { token: 'tok' }), { kind: 'PermissionDenied' });
});

void test('the client certificate\'s common name is the user only with client-cert-auth and no token', async () => {
  const plain = setup(false);
  plain.store.enable();
  assert.equal((await plain.gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, { commonName: 'alice' }))?.kind, 'UserEmpty');
  const tls = setup(true);
  tls.store.enable();
  assert.equal(await tls.gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, { commonName: 'alice' }), undefined);
  assert.equal((await tls.gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, { commonName: 'alice', token: 'bad' }))?.kind, 'InvalidAuthToken');
});

void test('apply: Authenticate records the token; a stale check answers an empty token; delete drops tokens', () => {
  const { store, simple } = setup();
  const port = { store, tokens: simple };
  const auth = (rev: number) => applyAuth(port, { $case: 'authenticate', value: { name: 'alice', simpleToken: 'T.1', authRevision: BigInt(rev) } }, header);
  assert.equal(!auth(store.revision).ok && 'AuthNotEnabled', 'AuthNotEnabled');
  store.enable();
  const stale = auth(store.revision - 1);
  assert.ok(stale.ok && stale.value.response.token === '');
  const good = auth(store.revision);
  assert.ok(good.ok && good.value.response.token === 'T.1');
  assert.equal(simple.lookup('T.1'), 'alice');
  const del = applyAuth(port, { $case: 'authUserDelete', value: { name: 'alice' } }, header);
  assert.ok(del.ok);
  assert.equal(simple.lookup('T.1'), undefined);
  const ghost = applyAuth(port, { $case: 'authenticate', value: { name: 'alice', simpleToken: 'T.2', authRevision: BigInt(store.revision) } }, header);
  assert.equal(!ghost.ok && ghost.error.kind, 'AuthFailed');
});

void test('an unknown simple token is looked up again after catching up with the leader', async () => {
  const { store, simple } = setup();
  store.enable();
  let caughtUp = 0;
  const gate = new AuthGate({
    store,
    tokens: { kind: 'simple', simple },
    leaseKeys: () => [],
    requirements: { leaseTimeToLiveKeys: true },
    clientCertAuth: false,
    header: () => header,
    // The Authenticate entry is applied here only once this member caught up.
    catchUp: async () => {
      caughtUp += 1;
      simple.assign('late', 'alice');
    },
  });
  assert.equal(await gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, { token: 'late' }), undefined);
  assert.equal(caughtUp, 1);
  assert.equal(await gate.check(RANGE, { key: b('k'), rangeEnd: b('') }, { token: 'late' }), undefined);
  assert.equal(caughtUp, 1, 'a known token needs no catching up');
});
