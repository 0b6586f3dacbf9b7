// The check at apply: the proposal header's identity against the auth state as of the entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Permission_Type } from '../../../proto/gen/etcd/auth.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import type { InternalRequest, RequestHeader } from '../../../proto/gen/kvstore/internal.js';
import { AlarmSet } from '../../../server/apply/alarms.js';
import { Applier } from '../../../server/apply/applier.js';
import { checkProposal, proposalNeeds } from '../../../server/auth/apply-check.js';
import { AuthStore } from '../../../server/auth/auth-store.js';
import { leasePort } from '../../../server/bootstrap/lease-port.js';
import { ClusterVersionState } from '../../../server/clusterversion/cluster-version-state.js';
import { createLessor } from '../../../server/lease/lessor.js';
import { Membership } from '../../../server/membership/membership.js';
import { openMvccStore } from '../../../server/mvcc/store.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';

const b = (s: string): Buffer => Buffer.from(s);
type Request = NonNullable<InternalRequest['request']>;

function store(): AuthStore {
  const s = new AuthStore();
  s.userAdd('root', b('h'), false);
  s.userGrantRole('root', 'root');
  s.userAdd('alice', b('h'), false);
  s.roleAdd('w');
  s.roleGrantPermission('w', { permType: Permission_Type.READWRITE, key: b('a'), rangeEnd: b('b') });
  s.userGrantRole('alice', 'w');
  s.enable();
  return s;
}

const hdr = (username: string, authRevision: number): RequestHeader => ({ id: 1n, memberId: 1n, username, authRevision: BigInt(authRevision) });
const put = (key: string, extra: Partial<pb.PutRequest> = {}): Request => ({ $case: 'put', value: { ...pb.PutRequest.fromJSON({}), key: b(key), value: b('v'), ...extra } });
const del = (key: string, rangeEnd = '', prevKv = false): Request => ({ $case: 'deleteRange', value: { key: b(key), rangeEnd: b(rangeEnd), prevKv } });
const txn = (t: unknown): Request => ({ $case: 'txn', value: pb.TxnRequest.fromJSON(t) });
const b64 = (s: string): string => b(s).toString('base64');
const noKeys = (): Buffer[] => [];

void test('what each committed request needs', () => {
  assert.deepEqual(proposalNeeds(put('a1'), noKeys).map((n) => n.kind), ['keys']);
  assert.equal(proposalNeeds(put('a1', { prevKv: true, lease: 5n }), () => [b('x'), b('y')]).length, 4);
  assert.equal(proposalNeeds(del('a', 'b', true), noKeys).length, 2);
  assert.equal(proposalNeeds({ $case: 'leaseRevoke', value: { ID: 5n } }, () => [b('x'), b('y')]).length, 2);
  assert.deepEqual(proposalNeeds({ $case: 'authRoleAdd', value: { name: 'r' } }, noKeys), [{ kind: 'admin' }]);
  assert.deepEqual(proposalNeeds({ $case: 'authenticate', value: { name: 'a', simpleToken: '', authRevision: 1n } }, noKeys), []);
  assert.deepEqual(proposalNeeds({ $case: 'compaction', value: { revision: 3n, physical: false } }, noKeys), []);
  assert.deepEqual(proposalNeeds({ $case: 'leaseGrant', value: { ID: 1n, TTL: 5n } }, noKeys), []);
});

void test('keys: allowed at the current revision; denied outside the role; a stale auth revision is AuthOldRevision', () => {
  const s = store();
  const rev = s.revision;
  assert.equal(checkProposal(s, hdr('alice', rev), put('a1'), noKeys), undefined);
  assert.equal(checkProposal(s, hdr('alice', rev), put('c'), noKeys)?.kind, 'PermissionDenied');
  assert.equal(checkProposal(s, hdr('alice', rev), put('a1', { lease: 5n }), () => [b('zz')])?.kind, 'PermissionDenied', 'a key of the lease outside the role');
  assert.equal(checkProposal(s, hdr('alice', rev - 1), put('a1'), noKeys)?.kind, 'AuthOldRevision');
  assert.equal(checkProposal(s, hdr('root', rev), put('anything'), noKeys), undefined);
  assert.equal(checkProposal(s, hdr('ghost', rev), put('a1'), noKeys)?.kind, 'PermissionDenied');
  assert.equal(checkProposal(s, hdr('alice', rev), { $case: 'leaseRevoke', value: { ID: 5n } }, () => [b('a2'), b('q')])?.kind, 'PermissionDenied');
});

void test('txn: every compare and every op of both branches (nested too)', () => {
  const s = store();
  const rev = s.revision;
  const ok = { compare: [{ key: b64('a1'), target: 'VALUE' }], success: [{ request_put: { key: b64('a2') } }], failure: [{ request_range: { key: b64('a3') } }] };
  assert.equal(checkProposal(s, hdr('alice', rev), txn(ok), noKeys), undefined);
  assert.equal(checkProposal(s, hdr('alice', rev), txn({ ...ok, compare: [{ key: b64('z'), target: 'VALUE' }] }), noKeys)?.kind, 'PermissionDenied');
  assert.equal(checkProposal(s, hdr('alice', rev), txn({ ...ok, failure: [{ request_delete_range: { key: b64('a'), range_end: b64('c') } }] }), noKeys)?.kind, 'PermissionDenied');
  assert.equal(checkProposal(s, hdr('alice', rev), txn({ success: [{ request_txn: { success: [{ request_put: { key: b64('z') } }] } }] }), noKeys)?.kind, 'PermissionDenied');
});

void test('auth management needs admin, with no revision check (etcd IsAdminPermitted)', () => {
  const s = store();
  assert.equal(checkProposal(s, hdr('root', 1), { $case: 'authRoleAdd', value: { name: 'x' } }, noKeys), undefined);
  assert.equal(checkProposal(s, hdr('alice', s.revision), { $case: 'authRoleAdd', value: { name: 'x' } }, noKeys)?.kind, 'PermissionDenied');
  assert.equal(checkProposal(s, hdr('ghost', s.revision), { $case: 'authUserDelete', value: { name: 'alice' } }, noKeys)?.kind, 'UserNotFound');
});

async function applier(auth: AuthStore) {
  const backend = createMemoryBackend();
  const mvcc = await openMvccStore(backend);
  const lessor = createLessor({ minTtlSeconds: 2n });
  return new Applier({
    store: mvcc,
    leases: leasePort(lessor),
    alarms: AlarmSet.restore([]),
    membership: Membership.restore([], []),
    clusterVersion: await ClusterVersionState.load(backend),
    auth: { store: auth, leaseKeys: (id) => lessor.timeToLive(id, 0)?.keys ?? [] },
    onEvents: () => undefined,
    onCompacted: () => undefined,
  });
}

void test('the applier: a permission revoked between the edge check and the entry is refused; entries without identity apply', async () => {
  const s = store();
  const a = await applier(s);
  const at = s.revision;
  assert.equal((await a.apply({ header: hdr('alice', at), request: put('a1') }, 0)).ok, true);
  // Root revokes alice's permission (committed before alice's next write, checked at revision `at`).
  assert.equal((await a.apply({ header: hdr('root', at), request: { $case: 'authRoleRevokePermission', value: { role: 'w', key: b('a'), rangeEnd: b('b') } } }, 0)).ok, true);
  const stale = await a.apply({ header: hdr('alice', at), request: put('a1') }, 0);
  assert.deepEqual(stale, { ok: false, error: { kind: 'AuthOldRevision' } });
  const fresh = await a.apply({ header: hdr('alice', s.revision), request: put('a1') }, 0);
  assert.deepEqual(fresh, { ok: false, error: { kind: 'PermissionDenied' } });
  // Older entries (no header, or a header without the fields) and internal proposals are not checked.
  assert.equal((await a.apply({ header: undefined, request: put('zz') }, 0)).ok, true);
  assert.equal((await a.apply({ header: { id: 9n, memberId: 1n, authRevision: 0n, username: '' }, request: put('zz') }, 0)).ok, true);
  // A non-admin's auth change is refused at apply.
  assert.deepEqual(await a.apply({ header: hdr('alice', s.revision), request: { $case: 'authUserAdd', value: { name: 'eve', password: '', hashedPassword: 'x', options: undefined } } }, 0), {
    ok: false,
    error: { kind: 'PermissionDenied' },
  });
});

void test('the applier checks nothing while auth is disabled', async () => {
  const s = store();
  const a = await applier(s);
  s.disable();
  assert.equal((await a.apply({ header: hdr('alice', 1), request: put('c') }, 0)).ok, true);
});
