/**
 * Admission of peer requests (pure): the order of checks and etcd's statuses, bodies and log
 * lines; etcd's version rule; backoff bounds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { backoffDelay } from '../../../server/peer/backoff.js';
import { admit, requestHeaders, versionIncompatibility, type LocalIdentity } from '../../../server/peer/handshake.js';

const local: LocalIdentity = {
  localId: 0x8e9e05c52164694dn,
  clusterId: 0xcdf818194e3a8c32n,
  serverVersion: '3.4.45',
  minClusterVersion: '3.0.0',
  advertiseUrls: ['http://localhost:2380'],
};
const sender: LocalIdentity = { ...local, localId: 0x2n, advertiseUrls: ['http://a:2380', 'http://b:2380'] };
const view = (peers: bigint[], removed: bigint[] = []) => ({ isPeer: (id: bigint) => peers.includes(id), isRemoved: (id: bigint) => removed.includes(id) });

void test('request headers carry the sender identity, ids in unpadded hex', () => {
  assert.deepEqual(requestHeaders(sender, local.localId), {
    'x-server-from': '2',
    'x-server-version': '3.4.45',
    'x-min-cluster-version': '3.0.0',
    'x-etcd-cluster-id': 'cdf818194e3a8c32',
    'x-peerurls': 'http://a:2380,http://b:2380',
    'x-raft-to': '8e9e05c52164694d',
  });
});

void test('admission table', () => {
  const h = requestHeaders(sender, local.localId);
  assert.deepEqual(admit(local, h, '2', view([2n])), { kind: 'Accept', from: 2n });
  const cases: [Record<string, string>, string, ReturnType<typeof view>, number, string][] = [
    [{ ...h, 'x-etcd-cluster-id': 'abc' }, '2', view([2n]), 412, 'cluster ID mismatch'],
    [{ ...h, 'x-server-version': '2.3.8' }, '2', view([2n]), 412, 'remote version is too low: remote[2.3.8] < minCluster[3.0.0]'],
    [h, 'zz', view([2n]), 400, 'invalid from'],
    [h, '2', view([], [2n]), 410, 'removed member'],
    [h, '2', view([]), 404, 'error sender not found'],
    [{ ...h, 'x-raft-to': '5' }, '2', view([2n]), 412, 'to field mismatch'],
  ];
  for (const [headers, from, v, status, body] of cases) {
    const a = admit(local, headers, from, v);
    assert.equal(a.kind, 'Reject');
    assert.equal(a.kind === 'Reject' && a.status, status, body);
    assert.equal(a.kind === 'Reject' && a.body, body);
  }
  const unknown = admit(local, h, '2', view([]));
  assert.deepEqual(unknown.kind === 'Reject' && unknown.log, {
    msg: 'failed to find remote peer in cluster',
    fields: {
      'local-member-id': '8e9e05c52164694d',
      'remote-peer-id-stream-handler': '8e9e05c52164694d',
      'remote-peer-id-from': '2',
      'cluster-id': 'cdf818194e3a8c32',
    },
  });
  assert.deepEqual(unknown.kind === 'Reject' && unknown.peerUrls, ['http://a:2380', 'http://b:2380']);
});

void test("etcd's version rule on major.minor; absent versions are not checked", () => {
  const l = { ...local, serverVersion: '3.4.45', minClusterVersion: '3.4.0' };
  assert.equal(versionIncompatibility(l, '3.4.0', '3.0.0'), undefined);
  assert.equal(versionIncompatibility(l, '3.5.2', '3.4.0'), undefined);
  assert.match(versionIncompatibility(l, '3.3.27', '3.0.0') ?? '', /remote version is too low/);
  assert.match(versionIncompatibility(l, '3.5.0', '3.5.0') ?? '', /local version is too low/);
  assert.equal(versionIncompatibility(l, '', ''), undefined);
});

void test('backoff: within [base/2, base], base doubling to the cap', () => {
  const policy = { initialMs: 50, maxMs: 1000 };
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (failures, r) => {
      const base = Math.min(1000, 50 * 2 ** (failures - 1));
      const d = backoffDelay(policy, failures, r);
      assert.ok(d >= Math.floor(base / 2) && d <= base, `${d} for ${failures}`);
    }),
  );
  assert.equal(backoffDelay(policy, 1, 0), 25);
  assert.equal(backoffDelay(policy, 30, 0.999999), 1000);
});
