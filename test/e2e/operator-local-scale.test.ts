/**
 * `kvstore-operator local`: membership changes driven by spec.size in the file — one member
 * grows to three (each new member joins as a learner, then is promoted), then shrinks back
 * to one (the highest ordinals removed first); data written before is still there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createMemberAdmin } from '../../operator/controller/admin/member-admin.js';
import { openKv, put, readPrefix } from '../support/processes.js';
import { endpointsOf, eventsIn, LocalOperator, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const MANIFEST = `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: sc
spec:
  size: 1 # members
  version: 3.5.0
`;

function setSize(file: string, size: number): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace(/size: \d # members/, `size: ${size} # members`));
}

void test('local mode: scale 1 → 3 → 1 by editing spec.size', async () => {
  const admin = createMemberAdmin();
  try {
    const { file, clusterDir } = writeManifest(MANIFEST, 'sc');
    const op = new LocalOperator(file, clusterDir);
    const one = await waitStatus(file, 'Running with 1 member', (s) => s.phase === 'Running' && s.readyMembers === '1/1', op);
    const kv = openKv(endpointsOf(one)[0]);
    for (let i = 0; i < 10; i++) await put(kv, `keep/${i}`, `v${i}`, 10_000);
    kv.close();

    setSize(file, 3);
    const three = await waitStatus(file, '3 healthy members', (s) => s.phase === 'Running' && s.readyMembers === '3/3' && s.members.length === 3 && s.members.every((m) => m.healthy), op, 120_000);
    const list = await admin.memberList(three.members[0].clientURL);
    assert.ok(list.ok);
    assert.deepEqual(list.value.map((m) => [m.name, m.isLearner]).sort(), [['sc-0', false], ['sc-1', false], ['sc-2', false]]);
    const reasons = eventsIn(clusterDir).map((e) => e.reason);
    assert.equal(reasons.filter((r) => r === 'MemberAdded').length, 2, reasons.join(' '));
    assert.equal(reasons.filter((r) => r === 'MemberPromoted').length, 2, reasons.join(' '));
    const kv3 = openKv(endpointsOf(three)[2]);
    assert.equal((await readPrefix(kv3, 'keep/')).kvs.size, 10);
    kv3.close();

    setSize(file, 1);
    const back = await waitStatus(file, 'back to 1 member', (s) => s.phase === 'Running' && s.readyMembers === '1/1' && s.members.length === 1, op, 120_000);
    const list1 = await admin.memberList(back.members[0].clientURL);
    assert.ok(list1.ok);
    assert.deepEqual(list1.value.map((m) => m.name), ['sc-0']);
    assert.equal(op.logs().includes('"level":"error"'), false);
    assert.equal(await op.stop('SIGTERM'), 0);
  } finally {
    admin.close();
  }
});
