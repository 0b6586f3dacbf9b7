/**
 * `kvstore-operator local`: a member whose data dir is deleted (and whose process is killed) is
 * replaced — removed from the membership (MemberReplacing, reason DataLost), re-added as a
 * learner with an empty data dir (MemberReplaced), promoted once caught up (MemberPromoted) —
 * and the cluster is back to 3 voting healthy members; the replaced member, a new member id
 * under the same name, serves the keys written before. Then the same for a data dir removed
 * while the operator and its members are stopped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createMemberAdmin } from '../../operator/controller/admin/member-admin.js';
import { eventually, openKv, put, readPrefix } from '../support/processes.js';
import { endpointsOf, eventsWith, LocalOperator, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const MANIFEST = `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: rp
spec:
  size: 3
  version: 3.5.0
`;

void test('local mode: a member whose data dir is deleted (while running, then while stopped) is replaced (learner first, promoted) and serves the data again', async () => {
  const admin = createMemberAdmin();
  try {
    const { file, clusterDir } = writeManifest(MANIFEST, 'rp');
    const op = new LocalOperator(file, clusterDir);
    const three = await waitStatus(file, '3 healthy members', (s) => s.phase === 'Running' && s.readyMembers === '3/3' && s.members.every((m) => m.healthy), op, 120_000);
    const kv = openKv(endpointsOf(three)[0]);
    for (let i = 0; i < 20; i++) await put(kv, `keep/${i}`, `v${i}`, 10_000);
    kv.close();
    const before = await admin.memberList(three.members[0].clientURL);
    assert.ok(before.ok);
    const oldId = before.value.find((m) => m.name === 'rp-1')?.id;
    assert.ok(oldId !== undefined);

    // The member's data is gone: its data dir removed, its process killed.
    const pid = Number(readFileSync(join(clusterDir, 'rp-1.pid'), 'utf8'));
    rmSync(join(clusterDir, 'rp-1.data'), { recursive: true, force: true });
    process.kill(pid, 'SIGKILL');

    // The supervision tick finds the data gone and runs a pass at once (no wait for the requeue).
    const replacing = (await eventsWith(clusterDir, 'MemberReplacing')).find((e) => e.reason === 'MemberReplacing');
    assert.match(replacing?.message ?? '', /rp-1.*reason DataLost/);
    const replaced = (await eventsWith(clusterDir, 'MemberReplaced')).find((e) => e.reason === 'MemberReplaced');
    assert.match(replaced?.message ?? '', /rp-1.*reason DataLost/);
    await eventsWith(clusterDir, 'MemberPromoted');

    const back = await waitStatus(file, '3 healthy voting members again', (s) => s.phase === 'Running' && s.readyMembers === '3/3' && s.members.length === 3 && s.members.every((m) => m.healthy), op, 120_000);
    const after = await eventually('3 named voting members, rp-1 under a new id', async () => {
      const list = await admin.memberList(back.members[0].clientURL);
      if (!list.ok) return undefined;
      const voting = list.value.filter((m) => !m.isLearner).map((m) => m.name).sort();
      const rp1 = list.value.find((m) => m.name === 'rp-1' && !m.isLearner);
      return voting.join(',') === 'rp-0,rp-1,rp-2' && rp1 !== undefined && rp1.id !== oldId ? list.value : undefined;
    }, { timeoutMs: 60_000 });
    assert.equal(after.length, 3);

    const rp1 = back.members.find((m) => m.name === 'rp-1')!;
    const kv1 = openKv(rp1.clientURL.replace(/^http:\/\//, ''));
    // A serializable read: answered from rp-1's own store, not forwarded.
    const got = await readPrefix(kv1, 'keep/', { serializable: true });
    kv1.close();
    assert.equal(got.kvs.size, 20);
    assert.equal(op.logs().includes('"level":"error"'), false);
    assert.equal(await op.stop('SIGTERM'), 0);

    // Removed while stopped: the operator (and with it every member) stops, rp-2's data dir is
    // removed, the operator starts again — rp-2 is not started as it is but replaced.
    rmSync(join(clusterDir, 'rp-2.data'), { recursive: true, force: true });
    const op2 = new LocalOperator(file, clusterDir);
    const again = (await eventsWith(clusterDir, 'MemberReplacing', 2)).filter((e) => e.reason === 'MemberReplacing')[1];
    assert.match(again?.message ?? '', /rp-2.*reason DataLost/);
    await eventsWith(clusterDir, 'MemberPromoted', 2);
    const third = await waitStatus(file, '3 healthy members after rp-2 was replaced', (s) => s.readyMembers === '3/3' && s.members.length === 3 && s.members.every((m) => m.healthy), op2, 120_000);
    const kv2 = openKv(third.members.find((m) => m.name === 'rp-2')!.clientURL.replace(/^http:\/\//, ''));
    assert.equal((await readPrefix(kv2, 'keep/', { serializable: true })).kvs.size, 20);
    kv2.close();
    assert.equal(op2.logs().includes('"level":"error"'), false);
    assert.equal(await op2.stop('SIGTERM'), 0);
  } finally {
    admin.close();
  }
});
