/**
 * The strict reconfiguration check (`--strict-reconfig-check`, default on) of a 3-member
 * cluster with one member killed (SIGKILL), through etcdctl on a survivor:
 * - `member add` of a voter, and of a learner, is refused: `Error: etcdserver: unhealthy
 *   cluster` (the survivor is not connected to every voter);
 * - `member remove` of the other LIVE member is refused the same way (2 connected − 1 is below
 *   the quorum of the 2 remaining voters);
 * - `member remove` of the dead member is accepted (a downed member is not in the active quorum);
 * - with `--strict-reconfig-check=false` the same voter add is accepted.
 * kvstore's survivor logs the reference server's warning. Runs against every server kind of
 * serverKinds() with the same expectations (the real etcd 3.4 is the reference); all waits are
 * bounded by GENEROUS_MS.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ctlFor, errorLine, eventually, loggedGrpcError, memberList, serverKinds, startCluster, waitForLeader, type CtlResult, type Member,
} from '../support/processes.js';

/** etcd's HealthInterval plus a margin: peers count as connected only after this long. */
const SETTLE_MS = 6000;
/** A peer URL nobody listens on (the added member is never started). */
const NEW_PEER = 'http://127.0.0.1:1';

const UNHEALTHY = 'etcdserver: unhealthy cluster';

function describeRun(r: CtlResult): string {
  return `exit ${r.code ?? r.signal}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
}

/** The refusal as etcdctl shows it: exit code, `Error:` line, and the gRPC status it logged (if any). */
function refusal(r: CtlResult): { code: number | null; error: string | undefined; grpc: string | undefined } {
  const logged = loggedGrpcError(r.stderr);
  return { code: r.code, error: errorLine(r.stderr), grpc: logged && `${logged.code}: ${logged.message}` };
}

/** The id (hex) of member `m` as the cluster lists it. */
async function idOf(through: Member, m: Member): Promise<string> {
  const list = await memberList(through.endpoint);
  const entry = list.find((e) => e.name === m.name);
  assert.ok(entry, `${m.name} not listed`);
  return entry.id;
}

/** Kills `dead`, then waits until `survivor` has noticed (its peer transport logs the peer inactive). */
async function killAndNotice(dead: Member, survivor: Member, deadId: string): Promise<void> {
  await dead.kill9();
  await eventually(`${survivor.name} notices ${dead.name} is down`, async () => {
    const lines = survivor.logs().split('\n').filter((l) => l.includes('peer became inactive') && l.includes(deadId));
    return lines.length > 0 ? true : undefined;
  });
}

for (const kind of serverKinds()) {
  void describe(`strict reconfiguration check of a 3-member ${kind} cluster`, () => {
    void it('refuses adds and a quorum-breaking remove with unhealthy cluster, accepts removing the dead member', async () => {
      const members = await startCluster(kind, 3);
      const { leader, followers } = await waitForLeader(members);
      const [survivor, dead] = [leader, followers[1]!];
      const other = followers[0]!;
      await sleep(SETTLE_MS);
      const deadId = await idOf(survivor, dead);
      const otherId = await idOf(survivor, other);
      await killAndNotice(dead, survivor, deadId);
      const ctl = ctlFor(survivor);

      const expected = { code: 1, error: UNHEALTHY, grpc: `Unavailable: ${UNHEALTHY}` };
      const addVoter = await ctl.run(['member', 'add', 'newcomer', `--peer-urls=${NEW_PEER}`]);
      assert.deepEqual(refusal(addVoter), expected, `member add (voter): ${describeRun(addVoter)}`);
      const addLearner = await ctl.run(['member', 'add', 'newcomer', `--peer-urls=${NEW_PEER}`, '--learner']);
      assert.deepEqual(refusal(addLearner), expected, `member add --learner: ${describeRun(addLearner)}`);
      const removeLive = await ctl.run(['member', 'remove', otherId]);
      assert.deepEqual(refusal(removeLive), expected, `member remove (live member): ${describeRun(removeLive)}`);

      const removeDead = await ctl.ok(['member', 'remove', deadId]);
      assert.match(removeDead, new RegExp(`^Member\\s+${deadId} removed from cluster\\s+[0-9a-f]+$`, 'm'));
      const after = await memberList(survivor.endpoint);
      assert.deepEqual(after.map((e) => e.name).sort(), [survivor.name, other.name].sort());

      if (kind === 'kvstore') {
        const warned = survivor.logs().split('\n').filter((l) => l.includes('"level":40') || l.includes('"level":"warn"'));
        const messages = warned.map((l) => (JSON.parse(l) as { msg?: string }).msg);
        assert.ok(messages.includes('rejecting member add request; local member has not been connected to all peers, reconfigure breaks active quorum'), warned.join('\n'));
        assert.ok(messages.includes('rejecting member remove request; local member has not been connected to all peers, reconfigure breaks active quorum'), warned.join('\n'));
      }
    });

    void it('with --strict-reconfig-check=false, a voter add with a member down is accepted', async () => {
      const members = await startCluster(kind, 3, { args: ['--strict-reconfig-check=false'] });
      const { leader, followers } = await waitForLeader(members);
      const dead = followers[1]!;
      const deadId = await idOf(leader, dead);
      await killAndNotice(dead, leader, deadId);
      const out = await ctlFor(leader).ok(['member', 'add', 'newcomer', `--peer-urls=${NEW_PEER}`]);
      assert.match(out, /^Member\s+[0-9a-f]+ added to cluster\s+[0-9a-f]+$/m);
      const list = await memberList(leader.endpoint);
      assert.equal(list.length, 4);
    });
  });
}
