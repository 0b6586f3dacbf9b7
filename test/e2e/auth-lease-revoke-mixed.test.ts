/**
 * SPEC "Authentication" rule 3, made safe: on a cluster mixing the 3.2 and 3.3 lines, a
 * LeaseRevoke by a user without write permission on the lease's keys is refused with
 * `etcdserver: permission denied` through a member of either line, and nothing of the store
 * changes (the lease, its keys and every member's revision and KV hash stay as they were).
 * A revoke the user may make (keys it can write) goes through and deletes the keys everywhere.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ctlFor, initialClusterOf, reserveAddress, startMember, type Member } from '../support/processes.js';
import { assertClusterHealthy, versionEnv, waitUntil } from '../support/upgrade-steps.js';

const ROOT = '--user=root:rootpw';
const ALICE = '--user=alice:alicepw';
const LINES = ['3.2.32', '3.2.32', '3.3.27'] as const;

void describe('lease revoke without permission on a mixed 3.2/3.3 cluster', () => {
  let members: Member[] = [];
  let secretLease = '';
  let ownLease = '';

  /** Every member's KV hash and revision (they must agree and stay put). */
  const snapshotOfStore = async (): Promise<string[]> =>
    Promise.all(
      members.map(async (m) => {
        const out = await ctlFor(m).ok(['endpoint', 'hashkv', '-w', 'json', ROOT]);
        const [row] = JSON.parse(out) as { HashKV: { header: { revision: number }; hash: number } }[];
        return `${row!.HashKV.header.revision}/${row!.HashKV.hash}`;
      }),
    );

  before(async () => {
    const addresses = await Promise.all(LINES.map((_, i) => reserveAddress(`mixed-${i + 1}`)));
    const initialCluster = initialClusterOf(addresses);
    members = await Promise.all(addresses.map((address, i) => startMember('kvstore', { address, initialCluster, env: versionEnv(LINES[i]!) })));
    await waitUntil('the cluster is healthy', () => assertClusterHealthy(members));
    const ctl = ctlFor(members[0]!);
    await ctl.ok(['user', 'add', 'root', '--new-user-password=rootpw']);
    await ctl.ok(['user', 'grant-role', 'root', 'root']);
    await ctl.ok(['user', 'add', 'alice', '--new-user-password=alicepw']);
    await ctl.ok(['role', 'add', 'own']);
    await ctl.ok(['role', 'grant-permission', 'own', 'readwrite', 'a/', '--prefix']);
    await ctl.ok(['user', 'grant-role', 'alice', 'own']);
    secretLease = /lease ([0-9a-f]+) granted/.exec(await ctl.ok(['lease', 'grant', '600']))![1]!;
    ownLease = /lease ([0-9a-f]+) granted/.exec(await ctl.ok(['lease', 'grant', '600']))![1]!;
    await ctl.ok(['put', 'secret', 's', `--lease=${secretLease}`]);
    await ctl.ok(['put', 'a/mine', 'm', `--lease=${ownLease}`]);
    await ctl.ok(['auth', 'enable']);
  });

  after(async () => {
    await Promise.all(members.map((m) => m.kill9()));
  });

  void it('is refused with permission denied through every member, and nothing changes', async () => {
    const before = await snapshotOfStore();
    assert.equal(new Set(before).size, 1, `members agree before: ${before.join(', ')}`);
    for (const m of members) {
      const r = await ctlFor(m).fails(['lease', 'revoke', secretLease, ALICE]);
      assert.match(r.stderr, /Error: failed to revoke lease \(etcdserver: permission denied\)/, `through ${m.name} (${m.name === 'mixed-3' ? '3.3' : '3.2'})`);
    }
    for (const m of members) {
      assert.equal(await ctlFor(m).ok(['get', 'secret', '--print-value-only', ROOT]), 's\n', `secret through ${m.name}`);
      assert.match(await ctlFor(m).ok(['lease', 'timetolive', secretLease, '--keys', ROOT]), /attached keys\(\[secret\]\)/);
    }
    assert.deepEqual(await snapshotOfStore(), before, 'no member changed its store');
  });

  void it('a revoke of a lease whose keys the user may write goes through on every member', async () => {
    await ctlFor(members[2]!).ok(['lease', 'revoke', ownLease, ALICE]);
    await waitUntil('every member applied the revoke', async () => {
      for (const m of members) {
        assert.equal(await ctlFor(m).ok(['get', 'a/mine', '--print-value-only', '--consistency=s', ROOT]), '', m.name);
      }
    });
    assert.equal(new Set(await snapshotOfStore()).size, 1, 'members agree after');
  });
});
