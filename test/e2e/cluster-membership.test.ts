/**
 * Membership changes of a running cluster through etcdctl:
 * - `member add --learner` to a 3-member cluster; the new member, started with
 *   `--initial-cluster-state=existing` and the printed ETCD_INITIAL_CLUSTER, catches up (its
 *   applied index reaches the leader's, it serves the data with serializable reads);
 * - `member promote` (sent to a follower, which must get it to the leader) succeeds once the
 *   learner is in sync, and every member then lists 4 started voters;
 * - `member remove` of a member stops that member's process (kvstore logs `the member has been
 *   permanently removed from the cluster`), and the remaining members serve reads and writes.
 *
 * The three steps share one cluster and run in order. Runs against every server kind of
 * serverKinds(); all waits are bounded by GENEROUS_MS.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  ctlFor, endpointHealth, endpointStatus, eventually, memberList, openKv, put, reserveAddress, serverKinds, startCluster,
  startMember, waitForLeader, type Member, type MemberEntry,
} from '../support/processes.js';

const SEED_KEYS = 300;

/** Writes `SEED_KEYS` keys through `m`, 20 at a time, so a joining member has a log to catch up on. */
async function seed(m: Member): Promise<void> {
  const kv = openKv(m.endpoint);
  try {
    for (let i = 0; i < SEED_KEYS; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => put(kv, `members/seed/${String(i + j).padStart(4, '0')}`, `v${i + j}`, 10_000)));
    }
  } finally {
    kv.close();
  }
}

/** The ETCD_* lines `member add` prints. */
function addOutput(stdout: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const m of stdout.matchAll(/^(ETCD_[A-Z_]+)="(.*)"$/gm)) vars[m[1]] = m[2];
  return vars;
}

/**
 * Runs a membership command until it succeeds; a refusal matching `transient` (the reference
 * server's answers while the cluster is not yet ready for the change) is retried, any other
 * failure fails the test at once.
 */
/** etcd refuses membership changes until the member has been connected to all peers for a while. */
const NOT_YET_CONNECTED = /etcdserver: unhealthy cluster/;
/** A learner is promoted only once it is in sync with the leader. */
const LEARNER_NOT_READY = /etcdserver: can only promote a learner member which is in sync with leader/;

const view = (list: readonly MemberEntry[]) => list.map(({ name, clientURLs, isLearner }) => ({ name, started: clientURLs.length > 0, isLearner }));

const byName = <T extends { name: string }>(list: T[]): T[] => list.sort((a, b) => a.name.localeCompare(b.name));

for (const kind of serverKinds()) {
  // The steps share one cluster and run in order; each names what it relies on.
  void describe(`membership changes of a running ${kind} cluster`, () => {
    let members: Member[] = [];
    let leader: Member;
    let followers: Member[] = [];
    let joiner: Member | undefined;
    let joinerId = '';

    before(async () => {
      members = await startCluster(kind, 3);
      ({ leader, followers } = await waitForLeader(members));
      await seed(leader);
    });

    void it('adds a learner that, started against the existing cluster, catches up', async () => {
      const address = await reserveAddress(`${kind}-joiner`);
      const added = await ctlFor(followers[0]).okOnceAccepted(['member', 'add', address.name, `--peer-urls=${address.peerUrl}`, '--learner'], NOT_YET_CONNECTED);
      const vars = addOutput(added);
      joinerId = /^Member\s+([0-9a-f]+) added to cluster\s+[0-9a-f]+$/m.exec(added)?.[1] ?? '';
      assert.ok(joinerId !== '', `member add output:\n${added}`);
      assert.equal(vars.ETCD_NAME, address.name);
      assert.equal(vars.ETCD_INITIAL_CLUSTER_STATE, 'existing');
      assert.equal(vars.ETCD_INITIAL_ADVERTISE_PEER_URLS, address.peerUrl);
      const learner = await startMember(kind, { address, initialCluster: vars.ETCD_INITIAL_CLUSTER, initialClusterState: 'existing' });
      joiner = learner;

      let last = '';
      await eventually(`learner ${learner.name} applies what the leader holds`, async () => {
        const { statuses, result } = await endpointStatus([leader.endpoint, learner.endpoint]);
        last = result.stdout + result.stderr;
        const l = statuses.find((s) => s.endpoint === leader.endpoint);
        const j = statuses.find((s) => s.endpoint === learner.endpoint);
        return l !== undefined && j !== undefined && j.isLearner && j.raftAppliedIndex >= l.raftIndex ? true : undefined;
      }, { describe: () => last });
      const lastKey = `members/seed/${String(SEED_KEYS - 1).padStart(4, '0')}`;
      assert.equal(await ctlFor(learner).ok(['get', lastKey, '--consistency=s', '--print-value-only']), `v${SEED_KEYS - 1}\n`);
      const listed = await memberList(leader.endpoint);
      assert.deepEqual(listed.find((m) => m.id === joinerId)?.isLearner, true, 'listed as a learner');
    });

    void it('promotes the learner through a follower; every member then lists 4 started voters', async () => {
      assert.ok(joiner !== undefined, 'the learner was added (previous step)');
      // The reference server forwards a promotion received by a follower to the leader.
      const promoted = await ctlFor(followers[1]).okOnceAccepted(['member', 'promote', joinerId], new RegExp(`${LEARNER_NOT_READY.source}|${NOT_YET_CONNECTED.source}`));
      assert.match(promoted, new RegExp(`^Member\\s+${joinerId} promoted in cluster\\s+[0-9a-f]+$`, 'm'));

      const all = [...members, joiner];
      const expected = JSON.stringify(byName(all.map((m) => ({ name: m.name, started: true, isLearner: false }))));
      for (const m of all) {
        let seen = '';
        await eventually(`${m.name} lists 4 started voters`, async () => {
          seen = JSON.stringify(byName(view(await memberList(m.endpoint))));
          return seen === expected ? true : undefined;
        }, { describe: () => `${seen}, expected ${expected}` });
      }
    });

    void it('removes a member: its process stops and the remaining members serve', async () => {
      assert.ok(joiner !== undefined, 'the learner was added (first step)');
      // This step needs the joiner as a voter; if the promotion step failed, promote it through the leader here.
      const listed = await memberList(leader.endpoint);
      if (listed.find((m) => m.id === joinerId)?.isLearner === true) {
        await ctlFor(leader).okOnceAccepted(['member', 'promote', joinerId], LEARNER_NOT_READY);
      }
      const removed = followers[0];
      const remaining = [...members, joiner].filter((m) => m !== removed);
      const removedId = listed.find((m) => m.name === removed.name)?.id;
      assert.ok(removedId !== undefined, `${removed.name} is listed`);
      const removal = await ctlFor(remaining[0]).okOnceAccepted(['member', 'remove', removedId], NOT_YET_CONNECTED);
      assert.match(removal, new RegExp(`^Member\\s+${removedId} removed from cluster\\s+[0-9a-f]+$`, 'm'));

      await eventually(`the removed member ${removed.name} exits`, async () => (removed.running ? undefined : true));
      if (kind === 'kvstore') assert.match(removed.logs(), /the member has been permanently removed from the cluster/);

      const stillRunning = (): void => {
        for (const m of remaining) assert.ok(m.running, `${m.name} still runs after the removal; log tail:\n${m.logs().split('\n').slice(-20).join('\n')}`);
      };
      await waitForLeader(remaining).catch((e: unknown) => {
        stillRunning();
        throw e;
      });
      stillRunning();
      for (const [i, m] of remaining.entries()) {
        await ctlFor(m).ok(['put', `members/after-remove/${i}`, m.name]);
        for (const reader of remaining) {
          assert.equal(await ctlFor(reader).ok(['get', `members/after-remove/${i}`, '--print-value-only']), `${m.name}\n`, `read through ${reader.name}`);
        }
        const names = (await memberList(m.endpoint)).map((e) => e.name).sort();
        assert.deepEqual(names, remaining.map((r) => r.name).sort(), `member list through ${m.name}`);
      }
      const { health, result } = await endpointHealth(remaining.map((m) => m.endpoint));
      assert.equal(result.code, 0, `endpoint health:\n${result.stdout}${result.stderr}`);
      assert.ok(health.every((h) => h.health));
    });
  });
}
