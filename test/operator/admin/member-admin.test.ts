/**
 * MemberAdmin against real kvstore members: /version, /health, /metrics (leader, v2 size),
 * Maintenance.Status, alarms, a linearizable read, auth status, member list, and a snapshot
 * streamed to a file whose trailer matches the image's SHA-256; a dead member is a value.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemberAdmin } from '../../../operator/controller/admin/member-admin.js';
import { sampleOf } from '../../../operator/controller/admin/prometheus-text.js';
import { eventually, makeTempDir, openKv, put, reserveAddress, startCluster, startKvstore } from '../../support/processes.js';

const admin = createMemberAdmin({ callTimeoutMs: 3000 });
after(() => admin.close());

void test('prometheus text: first sample, labels ignored, longer names skipped', () => {
  const text = '# HELP x\nkvstore_server_is_leader_x 5\nkvstore_server_is_leader 1\nkvstore_v2_store_size_bytes{a="b"} 42\n';
  assert.equal(sampleOf(text, 'kvstore_server_is_leader'), 1);
  assert.equal(sampleOf(text, 'kvstore_v2_store_size_bytes'), 42);
  assert.equal(sampleOf(text, 'missing'), undefined);
});

void test('member admin calls against a 3-member 3.4 cluster', async () => {
  const members = await startCluster('kvstore', 3, { env: { KVSTORE_SERVER_VERSION: '3.4.0' } });
  const kv = openKv(members[0].endpoint);
  for (let i = 0; i < 20; i++) await put(kv, `k${i}`, `v${i}`, 10_000);
  kv.close();

  // The cluster version starts at 3.0 and is raised by the leader shortly after start.
  const v = await eventually('cluster version 3.4.0', async () => {
    const r = await admin.version(members[0].clientUrl);
    return r.ok && r.value.cluster === '3.4.0' ? r : undefined;
  });
  assert.deepEqual(v, { ok: true, value: { server: '3.4.0', cluster: '3.4.0' } });
  for (const m of members) assert.deepEqual(await admin.health(m.clientUrl), { ok: true, value: true });

  const metrics = await Promise.all(members.map((m) => admin.metrics(m.clientUrl)));
  const leaders = metrics.filter((r) => r.ok && r.value.isLeader);
  assert.equal(leaders.length, 1, JSON.stringify(metrics));
  for (const r of metrics) assert.ok(r.ok && typeof r.value.v2StoreBytes === 'number');

  const st = await admin.status(members[1].clientUrl);
  assert.ok(st.ok, JSON.stringify(st));
  assert.match(st.value.memberId, /^[0-9a-f]{16}$/);
  assert.ok(st.value.revision >= 21);
  assert.equal(st.value.isLearner, false);

  assert.deepEqual(await admin.alarms(members[0].clientUrl), { ok: true, value: [] });
  assert.deepEqual(await admin.linearizableRead(members[2].clientUrl), { ok: true, value: undefined });
  assert.deepEqual(await admin.authEnabled(members[0].clientUrl), { ok: true, value: false });

  const list = await admin.memberList(members[0].clientUrl);
  assert.ok(list.ok);
  assert.deepEqual(list.value.map((m) => m.name).sort(), members.map((m) => m.name).sort());
  assert.ok(list.value.some((m) => m.id === st.value.memberId));

  const dir = makeTempDir('admin-snap');
  const file = join(dir, 'pre-upgrade.db');
  const leaderIdx = metrics.findIndex((r) => r.ok && r.value.isLeader);
  const snap = await admin.snapshot(members[leaderIdx].clientUrl, file);
  assert.ok(snap.ok, JSON.stringify(snap));
  assert.equal(snap.value.file, file);
  assert.equal(snap.value.revision, st.value.revision); // read from the image: nothing was written since
  const bytes = readFileSync(file);
  assert.equal(bytes.length, snap.value.size);
  assert.equal(bytes.length % 512, 32);
  const image = bytes.subarray(0, bytes.length - 32);
  assert.equal(createHash('sha256').update(image).digest('hex'), snap.value.sha256);
  assert.equal(bytes.subarray(bytes.length - 32).toString('hex'), snap.value.sha256);
  assert.ok(!existsSync(`${file}.part`));
});

void test('an unreachable member is a failure value, and a failed snapshot leaves no file', async () => {
  const addr = await reserveAddress('gone');
  const v = await admin.version(addr.clientUrl);
  assert.equal(v.ok, false);
  const h = await admin.health(addr.clientUrl);
  assert.equal(h.ok, false);
  const s = await admin.status(addr.clientUrl);
  assert.equal(s.ok, false);
  const dir = makeTempDir('admin-snap-fail');
  const snap = await admin.snapshot(addr.clientUrl, join(dir, 'x.db'));
  assert.equal(snap.ok, false);
  assert.deepEqual(readdirSync(dir), []);
});

void test('a snapshot of a store without keys: revision 0 (as snapshot status reports it)', async () => {
  const m = await startKvstore();
  const dir = makeTempDir('admin-snap-empty');
  const snap = await admin.snapshot(m.clientUrl, join(dir, 'empty.db'));
  assert.ok(snap.ok, JSON.stringify(snap));
  assert.equal(snap.value.revision, 0);
});
