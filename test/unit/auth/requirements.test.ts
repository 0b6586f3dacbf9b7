// What each call needs from the auth store (etcd 3.4's checks), table by table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requirementsOf, watchNeeds, type Need } from '../../../server/auth/requirements.js';
import { PermType } from '../../../server/auth/permissions.js';

const b = (s: string): Buffer => Buffer.from(s);
const E = b('');
const leaseKeys = (id: bigint): Buffer[] => (id === 7n ? [b('l1'), b('l2')] : []);
const show = (needs: readonly Need[] | undefined): string[] | undefined =>
  needs?.map((n) => (n.kind === 'keys' ? `${n.type === PermType.Read ? 'R' : 'W'} ${n.key}..${n.rangeEnd}` : n.kind === 'admin' ? `admin${n.raw ? ' raw' : ''}` : `${n.kind}`));

void test('KV calls', () => {
  const rows: [string, unknown, string[] | undefined][] = [
    ['/etcdserverpb.KV/Range', { key: b('a'), rangeEnd: b('b') }, ['R a..b']],
    ['/etcdserverpb.KV/Put', { key: b('k'), lease: 0n, prevKv: false }, ['W k..']],
    ['/etcdserverpb.KV/Put', { key: b('k'), lease: 7n, prevKv: true }, ['W k..', 'W l1..', 'W l2..', 'R k..']],
    ['/etcdserverpb.KV/DeleteRange', { key: b('a'), rangeEnd: b('z'), prevKv: true }, ['W a..z', 'R a..z']],
    ['/etcdserverpb.KV/Compact', { revision: 3n }, undefined],
    [
      '/etcdserverpb.KV/Txn',
      {
        compare: [{ key: b('c'), rangeEnd: E }],
        success: [{ request: { $case: 'requestPut', value: { key: b('p'), lease: 7n, prevKv: true } } }],
        failure: [
          { request: { $case: 'requestRange', value: { key: b('r'), rangeEnd: E } } },
          { request: { $case: 'requestTxn', value: { compare: [{ key: b('n'), rangeEnd: E }], success: [], failure: [] } } },
        ],
      },
      ['R c..', 'W p..', 'R r..', 'R n..'],
    ],
  ];
  for (const [path, req, want] of rows) assert.deepEqual(show(requirementsOf(path, req, leaseKeys, { leaseTimeToLiveKeys: true })), want, path);
});

void test('lease, maintenance, cluster and auth calls', () => {
  const rows: [string, unknown, string[] | undefined][] = [
    ['/etcdserverpb.Lease/LeaseRevoke', { ID: 7n }, ['W l1..', 'W l2..']],
    ['/etcdserverpb.Lease/LeaseRevoke', { ID: 8n }, []],
    ['/etcdserverpb.Lease/LeaseTimeToLive', { ID: 7n, keys: true }, ['R l1..', 'R l2..']],
    ['/etcdserverpb.Lease/LeaseTimeToLive', { ID: 7n, keys: false }, []],
    ['/etcdserverpb.Lease/LeaseGrant', { ID: 0n, TTL: 5n }, undefined],
    ['/etcdserverpb.Maintenance/Snapshot', {}, ['admin raw']],
    ['/etcdserverpb.Maintenance/Defragment', {}, ['admin raw']],
    ['/etcdserverpb.Maintenance/Status', {}, undefined],
    ['/etcdserverpb.Maintenance/Alarm', {}, undefined],
    ['/etcdserverpb.Cluster/MemberAdd', {}, ['admin']],
    ['/etcdserverpb.Cluster/MemberList', {}, undefined],
    ['/etcdserverpb.Auth/UserAdd', {}, ['admin']],
    ['/etcdserverpb.Auth/AuthEnable', {}, ['admin']],
    ['/etcdserverpb.Auth/Authenticate', {}, undefined],
    ['/etcdserverpb.Auth/UserGet', { name: 'u' }, ['adminOrSelf']],
    ['/etcdserverpb.Auth/RoleGet', { role: 'r' }, ['adminOrRole']],
  ];
  for (const [path, req, want] of rows) assert.deepEqual(show(requirementsOf(path, req, leaseKeys, { leaseTimeToLiveKeys: true })), want, path);
});

void test('a watch on `key` with range end \\0 is checked as the single key (as etcd does)', () => {
  assert.deepEqual(show([watchNeeds({ key: b('k'), rangeEnd: Buffer.from([0]) } as never)]), ['R k..']);
  assert.deepEqual(show([watchNeeds({ key: b('a'), rangeEnd: b('b') } as never)]), ['R a..b']);
});

void test('LeaseTimeToLive with keys is checked only where the release line does (3.5)', () => {
  assert.deepEqual(show(requirementsOf('/etcdserverpb.Lease/LeaseTimeToLive', { ID: 7n, keys: true }, leaseKeys, { leaseTimeToLiveKeys: false })), []);
});
