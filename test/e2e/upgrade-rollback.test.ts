/**
 * Going back from 3.5 to 3.4 (SPEC "Upgrade rules" 7, "States and transitions"): while the
 * upgrade is partial (cluster version still 3.4) a member on 3.5 can return to the 3.4 binary and
 * the cluster stays at 3.4 with its data; once every member ran 3.5 (cluster version 3.5), a 3.4
 * binary refuses to start on a member's data dir (exit code 2, `invalid downgrade`, naming 3.5.0
 * and pointing to restoring a snapshot) without harming the data dir; a 3.3 binary cannot join the
 * 3.5 cluster (`incompatible with current running cluster`) while a 3.5 binary with the same
 * configuration can.
 *
 * The steps build on each other (one cluster for the file). Every wait is bounded.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { ctlFor, reserveAddress, startCluster, startMember, type Member } from '../support/processes.js';
import { countRecords, lastRunLog } from '../support/member-log.js';
import { versionOf } from '../support/member-http.js';
import { keepLogs } from '../support/rolling-upgrade.js';
import {
  assertClusterHealthy, exitCodeWithin, expectHealthBody, memberIds, replaceMember, versionEnv, waitUntil,
} from '../support/upgrade-steps.js';

/** Longer than one 4 s version-monitor period: long enough for the leader to have raised the version if it were going to. */
const OBSERVE_MS = 6_000;

void describe('rolling back from 3.5 to 3.4', () => {
  let members: Member[] = [];
  const data = new Map<string, string>();

  const expectVersions = async (expected: (m: Member) => { etcdserver: string; etcdcluster: string }): Promise<void> => {
    for (const m of members) assert.deepEqual(await versionOf(m), expected(m), `/version of ${m.name}`);
  };
  const putThrough = async (m: Member, key: string, value: string): Promise<void> => {
    await ctlFor(m).ok(['put', key, value]);
    data.set(key, value);
  };
  const expectData = async (): Promise<void> => {
    for (const m of members) {
      for (const [key, value] of data) {
        assert.equal(await ctlFor(m).ok(['get', key, '--print-value-only']), `${value}\n`, `${key} through ${m.name}`);
      }
    }
  };
  const replaceAndWait = async (m: Member, version: string): Promise<void> => {
    assert.equal(await replaceMember(m, version), 0, `exit code of ${m.name} after SIGTERM`);
    await waitUntil('every member and the cluster are healthy', () => assertClusterHealthy(members));
  };

  before(async () => {
    members = await startCluster('kvstore', 3, { env: versionEnv('3.4.0') });
    await waitUntil('every member reports cluster version 3.4.0', () => expectVersions(() => ({ etcdserver: '3.4.0', etcdcluster: '3.4.0' })));
    await putThrough(members[0], 'rollback/before-upgrade', 'v-3.4');
  });

  after(() => keepLogs(members));

  void it('puts a member that runs 3.5.0 back on 3.4.0 while the cluster version is 3.4: it serves again, the cluster stays at 3.4.0 with its data', async () => {
    const m = members[0];
    await replaceAndWait(m, '3.5.0');
    assert.deepEqual(await versionOf(m), { etcdserver: '3.5.0', etcdcluster: '3.4.0' });
    await putThrough(m, 'rollback/while-mixed', 'v-mixed');

    await replaceAndWait(m, '3.4.0');
    await expectVersions(() => ({ etcdserver: '3.4.0', etcdcluster: '3.4.0' }));
    await expectHealthBody(m, '{"health":"true"}');
    const updates = members.map((o) => countRecords(o, 'updated cluster version'));
    await sleep(OBSERVE_MS);
    await expectVersions(() => ({ etcdserver: '3.4.0', etcdcluster: '3.4.0' }));
    assert.deepEqual(members.map((o) => countRecords(o, 'updated cluster version')), updates, '"updated cluster version" records after the rollback');
    await putThrough(m, 'rollback/after-rollback', 'v-back');
    await expectData();
  });

  void it('completes the upgrade: once all 3 run 3.5.0 the cluster version is 3.5.0', async () => {
    for (const m of members) await replaceAndWait(m, '3.5.0');
    await waitUntil('every member reports 3.5.0 in both fields', () => expectVersions(() => ({ etcdserver: '3.5.0', etcdcluster: '3.5.0' })));
    await putThrough(members[2], 'rollback/after-upgrade', 'v-3.5');
  });

  void it('refuses a 3.4.0 binary on a member data dir of the 3.5 cluster: exit code 2, invalid downgrade naming 3.5.0, restore a snapshot', async () => {
    const m = members[1];
    const stopped = await m.stop('SIGTERM');
    assert.equal(stopped, 0, `exit code of ${m.name} after SIGTERM; its output:\n${lastRunLog(m)}`);
    await m.restart({ env: versionEnv('3.4.0'), waitReady: false });
    const code = await exitCodeWithin(m);
    const run = lastRunLog(m);
    assert.equal(code, 2, `exit code of the 3.4.0 binary; its output:\n${run}`);
    const line = run.split('\n').find((l) => l.startsWith('kvstore: invalid downgrade; '));
    assert.ok(line !== undefined, `a "kvstore: invalid downgrade; …" line on stderr; the output:\n${run}`);
    assert.match(line, /3\.5\.0/, 'names the cluster version');
    assert.match(line, /restor(e|ing) (a|from a) snapshot|snapshot restore/i, 'points to restoring a snapshot');
  });

  void it('starts that member again on 3.5.0 with its data intact', async () => {
    const m = members[1];
    await m.restart({ env: versionEnv('3.5.0'), waitReady: true });
    await waitUntil('every member and the cluster are healthy', () => assertClusterHealthy(members));
    await expectVersions(() => ({ etcdserver: '3.5.0', etcdcluster: '3.5.0' }));
    await expectData();
  });

  void it('refuses a 3.3.0 member joining the 3.5 cluster (member add, --initial-cluster-state=existing), and admits it on 3.5.0', async () => {
    const address = await reserveAddress('rollback-joiner');
    // Refused as unhealthy until the restarted members have been connected for 5 s (strict reconfiguration).
    await ctlFor(members[0]).okOnceAccepted(['member', 'add', address.name, `--peer-urls=${address.peerUrl}`], /etcdserver: unhealthy cluster/);
    const initialCluster = [...members.map((m) => `${m.name}=${m.peerUrl}`), `${address.name}=${address.peerUrl}`].join(',');
    const joiner = await startMember('kvstore', { address, initialCluster, initialClusterState: 'existing', env: versionEnv('3.3.0'), waitReady: false });
    members.push(joiner);
    const code = await exitCodeWithin(joiner);
    const run = lastRunLog(joiner);
    assert.equal(code, 2, `exit code of the 3.3.0 joiner; its output:\n${run}`);
    assert.match(run, /^kvstore: incompatible with current running cluster/m, 'the refusal on stderr');

    // The same configuration on the cluster's line joins: the refusal was about the version.
    await joiner.restart({ env: versionEnv('3.5.0'), waitReady: true });
    await waitUntil('every member, the joiner included, and the cluster are healthy', () => assertClusterHealthy(members));
    await waitUntil('the joiner is listed under its name (published once it started)', async () => {
      assert.ok((await memberIds(members[0])).has(joiner.name));
    });
    await expectVersions(() => ({ etcdserver: '3.5.0', etcdcluster: '3.5.0' }));
  });
});
