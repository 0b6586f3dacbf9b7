/**
 * The pure restore plan: ids from --initial-cluster + token, the founding log, the marker and
 * the consistent index; what happens to each bucket of the snapshot.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterIdFor, memberIdFor } from '../../../server/config/index.js';
import { decodeWalMetadata } from '../../../server/bootstrap/data-dir.js';
import { planRestore } from '../../../server/snapshot/restore/restore-plan.js';
import { parseRestoreTarget } from '../../../server/snapshot/restore/restore-target.js';
import { bucketFate, copyOp, finalOps } from '../../../server/snapshot/restore/backend-rewrite.js';

const CLUSTER = 'm1=http://127.0.0.1:2380,m2=http://127.0.0.1:2381,m3=http://127.0.0.1:2382';

function target(name: string, peer: string, cluster = CLUSTER) {
  const t = parseRestoreTarget({ name, initialCluster: cluster, initialClusterToken: 'tok', initialAdvertisePeerUrls: peer });
  assert.ok(t.ok);
  return t.target;
}

void test('ids, log and marker of a 3-member restore', () => {
  const p = planRestore(target('m2', 'http://127.0.0.1:2381'));
  assert.ok(p.ok);
  const ids = ['http://127.0.0.1:2380', 'http://127.0.0.1:2381', 'http://127.0.0.1:2382'].map((u) => memberIdFor([u], 'tok'));
  assert.equal(p.plan.memberId, ids[1]);
  assert.equal(p.plan.clusterId, clusterIdFor(ids));
  assert.deepEqual(decodeWalMetadata(p.plan.walMetadata), { memberId: ids[1], clusterId: clusterIdFor(ids) });
  assert.deepEqual(p.plan.entries.map((e) => [e.term, e.index]), [[1, 1], [1, 2], [1, 3]]);
  assert.deepEqual(p.plan.hardState, { term: 1, vote: 0n, commit: 3 });
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : 1));
  assert.deepEqual(p.plan.snapshot, { index: 3, term: 1, confState: { voters: sorted, learners: [] } });
  assert.equal(p.plan.consistentIndex, 3n);
  assert.deepEqual(p.plan.members.map((m) => m.id), sorted);
  assert.deepEqual(p.plan.members.find((m) => m.id === ids[0])?.name, 'm1');
});

void test('every member of the cluster derives the same log', () => {
  const a = planRestore(target('m1', 'http://127.0.0.1:2380'));
  const b = planRestore(target('m3', 'http://127.0.0.1:2382'));
  assert.ok(a.ok && b.ok);
  assert.deepEqual(a.plan.entries, b.plan.entries);
  assert.equal(a.plan.clusterId, b.plan.clusterId);
  assert.notEqual(a.plan.memberId, b.plan.memberId);
});

void test('the default single member has etcd\'s well-known ids', () => {
  const t = parseRestoreTarget({ name: 'default', initialCluster: 'default=http://localhost:2380', initialClusterToken: 'etcd-cluster', initialAdvertisePeerUrls: 'http://localhost:2380' });
  assert.ok(t.ok);
  const p = planRestore(t.target);
  assert.ok(p.ok);
  assert.equal(p.plan.memberId.toString(16), '8e9e05c52164694d');
  assert.equal(p.plan.clusterId.toString(16), 'cdf818194e3a8c32');
});

void test('bad membership flags are refused with the server\'s messages', () => {
  const missing = planRestore(target('m9', 'http://127.0.0.1:2380'));
  assert.deepEqual(missing, { ok: false, message: 'couldn\'t find local name "m9" in the initial cluster configuration' });
  const wrongUrl = planRestore(target('m1', 'http://127.0.0.1:2399'));
  assert.ok(!wrongUrl.ok && wrongUrl.message.startsWith('--initial-cluster has m1=http://127.0.0.1:2380 but missing from --initial-advertise-peer-urls'));
  const bad = parseRestoreTarget({ name: 'm1', initialCluster: 'm1', initialClusterToken: 't', initialAdvertisePeerUrls: 'http://127.0.0.1:2380' });
  assert.equal(bad.ok, false);
});

void test('buckets: data copied, membership replaced, old log position and v2 space dropped, others skipped', () => {
  assert.equal(bucketFate('key'), 'copy');
  assert.equal(bucketFate('authRoles'), 'copy');
  assert.equal(bucketFate('members'), 'replace');
  assert.equal(bucketFate('members_removed'), 'replace');
  assert.equal(bucketFate('something'), 'skip');
  const v = Buffer.from('v');
  assert.deepEqual(copyOp('key', Buffer.from('k'), v), { type: 'put', bucket: 'key', key: Buffer.from('k'), value: v });
  assert.equal(copyOp('meta', Buffer.from('consistent_index'), v), undefined);
  assert.equal(copyOp('meta', Buffer.from('term'), v), undefined);
  assert.equal(copyOp('meta', Buffer.from('confState'), v), undefined);
  assert.ok(copyOp('meta', Buffer.from('finishedCompactRev'), v));
  assert.equal(copyOp('cluster', Buffer.from('v2store'), v), undefined);
  assert.ok(copyOp('cluster', Buffer.from('clusterVersion'), v));
  assert.equal(copyOp('members', Buffer.from('1'), v), undefined);
  const p = planRestore(target('m1', 'http://127.0.0.1:2380'));
  assert.ok(p.ok);
  const ops = finalOps(p.plan.members, 3n);
  assert.equal(ops.filter((o) => o.bucket === 'members').length, 3);
  assert.deepEqual(ops.at(-1), { type: 'put', bucket: 'meta', key: Buffer.from('consistent_index'), value: Buffer.from('0000000000000003', 'hex') });
});
