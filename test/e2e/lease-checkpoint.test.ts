/**
 * Lease checkpointing across a leader change, in a 3-member cluster on loopback:
 * - kvstore with `--experimental-enable-lease-checkpoint` and a 1 s checkpoint interval
 *   (KVSTORE_LEASE_CHECKPOINT_INTERVAL): after the leader is killed with SIGKILL, the new leader
 *   resumes the lease from its checkpointed remaining TTL — `TimeToLive` through every survivor
 *   shows a remaining TTL well below the granted TTL;
 * - without the flag (kvstore and the real etcd 3.4, whose 5-minute interval a test cannot wait
 *   for anyway): after the leader stops, the lease restarts from its full TTL on the new leader.
 *
 * Bounds are logical, not timings: with the flag, the old leader reported at least WAITED_S
 * seconds gone and checkpoints every second, so the new leader's remaining TTL is below
 * TTL − MARGIN_S; without it, the lease restarted after the stop began, so its remaining TTL is
 * at least TTL − (seconds since the stop began) − 1. Waits are bounded by eventually().
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ctlFor, eventually, serverKinds, startCluster, waitForLeader, type Member } from '../support/processes.js';

const TTL = 300;
/** Seconds the lease has been running (as the leader reports it) before the leader goes. */
const WAITED_S = 12;
/** "Well below the granted TTL": more than this many seconds gone on the new leader. */
const MARGIN_S = 5;
const WAIT_MS = 90_000;

const GRANTED = /^lease ([0-9a-f]{16}) granted with TTL\((\d+)s\)\n$/;
const REMAINING = /^lease ([0-9a-f]{16}) granted with TTL\((\d+)s\), remaining\((-?\d+)s\)\n$/;

async function grant(m: Member, ttl: number): Promise<string> {
  const out = await ctlFor(m).ok(['lease', 'grant', String(ttl)]);
  const g = GRANTED.exec(out);
  assert.ok(g !== null, `unexpected grant output: ${out}`);
  return g[1];
}

/** Remaining TTL in seconds as `m` answers TimeToLive (a follower forwards it to the leader). */
async function remaining(m: Member, id: string): Promise<{ granted: number; remaining: number }> {
  const out = await ctlFor(m).ok(['lease', 'timetolive', id]);
  const r = REMAINING.exec(out);
  assert.ok(r !== null, `unexpected timetolive output from ${m.name}: ${out}`);
  return { granted: Number(r[2]), remaining: Number(r[3]) };
}

/** Waits until the leader reports the lease has run for at least WAITED_S seconds. */
async function letTimePass(leader: Member, id: string): Promise<number> {
  return eventually(
    `lease ${id} has run ${WAITED_S}s on ${leader.name}`,
    async () => {
      const r = await remaining(leader, id);
      return r.remaining <= TTL - WAITED_S ? r.remaining : undefined;
    },
    { timeoutMs: WAIT_MS },
  );
}

/** TimeToLive as every survivor answers it, once they agree on a leader among them. */
async function afterFailover(survivors: readonly Member[], id: string): Promise<{ leader: Member; answers: { name: string; granted: number; remaining: number }[] }> {
  const { leader } = await waitForLeader(survivors);
  const answers = [];
  for (const m of [leader, ...survivors.filter((s) => s !== leader)]) answers.push({ name: m.name, ...(await remaining(m, id)) });
  return { leader, answers };
}

void describe('lease checkpointing on: a new leader resumes remaining TTLs', () => {
  void it('kvstore: after the leader is killed, TimeToLive shows the checkpointed remaining TTL, not the granted TTL', async (t) => {
    const members = await startCluster('kvstore', 3, {
      args: ['--experimental-enable-lease-checkpoint'],
      env: { KVSTORE_LEASE_CHECKPOINT_INTERVAL: '1s' },
    });
    const { leader: old, followers: survivors } = await waitForLeader(members);
    const id = await grant(old, TTL);
    const before = await letTimePass(old, id);
    await old.kill9();
    t.diagnostic(`killed leader ${old.name}; it reported ${before}s remaining of ${TTL}s`);

    const { leader, answers } = await afterFailover(survivors, id);
    t.diagnostic(`new leader ${leader.name}: ${JSON.stringify(answers)}`);
    for (const a of answers) {
      assert.equal(a.granted, TTL, `${a.name} keeps the granted TTL`);
      assert.ok(a.remaining > 0 && a.remaining < TTL - MARGIN_S, `${a.name}: remaining ${a.remaining}s should resume from a checkpoint (below ${TTL - MARGIN_S}s)`);
    }

    // A keep-alive on the new leader restarts the full TTL.
    const kept = await ctlFor(leader).ok(['lease', 'keep-alive', '--once', id]);
    assert.equal(kept, `lease ${id} keepalived with TTL(${TTL})\n`);
    assert.ok((await remaining(leader, id)).remaining >= TTL - MARGIN_S);
  });
});

for (const kind of serverKinds()) {
  void describe(`lease checkpointing off (${kind}): a new leader restarts leases from the full TTL`, () => {
    void it('after the leader stops, TimeToLive shows the lease restarted from its granted TTL', async (t) => {
      const members = await startCluster(kind, 3);
      const { leader: old, followers: survivors } = await waitForLeader(members);
      const id = await grant(old, TTL);
      const before = await letTimePass(old, id);
      const stoppedAt = Date.now();
      await old.stop('SIGTERM');
      t.diagnostic(`stopped leader ${old.name}; it reported ${before}s remaining of ${TTL}s`);

      const { leader, answers } = await afterFailover(survivors, id);
      const sinceStop = Math.ceil((Date.now() - stoppedAt) / 1000);
      t.diagnostic(`new leader ${leader.name} ${sinceStop}s after the stop began: ${JSON.stringify(answers)}`);
      for (const a of answers) {
        assert.equal(a.granted, TTL, `${a.name} keeps the granted TTL`);
        assert.ok(a.remaining >= TTL - sinceStop - 1, `${a.name}: remaining ${a.remaining}s should restart from ${TTL}s after the stop (${sinceStop}s ago)`);
      }
    });
  });
}
