/**
 * `kvstore-operator local`: membership changes driven by spec.size in the file — one member
 * grows to three (each new member joins as a learner, then is promoted), then shrinks back
 * to one (the highest ordinals removed first); data written before is still there. A member
 * killed in between is started again by the operator.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemberAdmin } from '../../operator/controller/admin/member-admin.js';
import { eventually, openKv, put, readPrefix } from '../support/processes.js';
import { editManifest, endpointsOf, eventsWith, LocalOperator, waitStatus, writeManifest } from '../operator/local/local-operator.js';

const MANIFEST = `apiVersion: kvstore.io/v1alpha1
kind: KvstoreCluster
metadata:
  name: sc
spec:
  size: 1 # members
  version: 3.5.0
`;

function setSize(file: string, size: number): void {
  editManifest(file, (text) => text.replace(/size: \d # members/, `size: ${size} # members`));
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
    // A new member's name shows in the list once it has published itself.
    const names = await eventually('3 named voting members', async () => {
      const list = await admin.memberList(three.members[0].clientURL);
      const got = list.ok ? list.value.map((m) => `${m.name}${m.isLearner ? ' (learner)' : ''}`).sort() : [];
      return got.join(',') === 'sc-0,sc-1,sc-2' ? got : undefined;
    });
    assert.equal(names.length, 3);
    const reasons = (await eventsWith(clusterDir, 'MemberPromoted', 2)).map((e) => e.reason);
    assert.equal(reasons.filter((r) => r === 'MemberAdded').length, 2, reasons.join(' '));
    assert.equal(reasons.filter((r) => r === 'MemberPromoted').length, 2, reasons.join(' '));
    const kv3 = openKv(endpointsOf(three)[2]);
    assert.equal((await readPrefix(kv3, 'keep/')).kvs.size, 10);
    kv3.close();

    // A member that dies is started again by the operator (same name, data dir, URLs).
    const pidFile = join(clusterDir, 'sc-1.pid');
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const sc1 = three.members.find((m) => m.name === 'sc-1')!.clientURL;
    process.kill(pid, 'SIGKILL');
    await waitStatus(file, 'sc-1 restarted', () => {
      const now = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : pid;
      return now !== pid;
    }, op);
    // The restarted process itself answers healthy (the operator may restart it before any pass
    // sees it down, so the file's status alone cannot tell "healthy again" from "never seen down").
    await eventually('the restarted sc-1 answers healthy', async () => {
      const h = await admin.health(sc1);
      return h.ok && h.value ? true : undefined;
    }, { timeoutMs: 120_000 });
    await waitStatus(file, 'sc-1 healthy again', (s) => s.members.every((m) => m.healthy) && s.readyMembers === '3/3', op);
    assert.match(op.logs(), /member not running; starting it again/);

    setSize(file, 1);
    const back = await waitStatus(file, 'back to 1 member', (s) => s.phase === 'Running' && s.readyMembers === '1/1' && s.members.length === 1, op, 120_000);
    const list1 = await admin.memberList(back.members[0].clientURL);
    assert.ok(list1.ok);
    assert.deepEqual(list1.value.map((m) => m.name), ['sc-0']);
    const errors = op.logs().split('\n').filter((line) => line.includes('"level":"error"'));
    assert.deepEqual(errors, [], 'the operator logged errors');
    assert.equal(await op.stop('SIGTERM'), 0);
  } finally {
    admin.close();
  }
});
