/**
 * A leader killed with SIGKILL under a concurrent write load: the survivors elect a new leader
 * within a bounded wait, writes succeed again, the killed member (restarted on its data dir)
 * catches up, and no acknowledged write is lost.
 *
 * The load is 20 closed-loop writers over all three endpoints, each putting unique keys and
 * recording what was acknowledged (test/support/write-load.ts). Puts that fail around the crash
 * are counted and reported, not asserted: only acknowledged puts carry a promise. Runs against
 * every server kind of serverKinds(); all waits are bounded by GENEROUS_MS.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  endpointStatus, eventually, openKv, readPrefix, serverKinds, startCluster, unmatchedAcks, waitForLeader, WriteLoad,
  type Member,
} from '../support/processes.js';

const PREFIX = 'crash/';
const WRITERS = 20;
/** Acknowledged puts that show the load is flowing (before the crash, after the election, after the restart). */
const PROGRESS = 500;

/** Every acknowledged put is readable through `m` with its value and revision. */
async function assertAllAcked(m: Member, load: WriteLoad, serializable: boolean): Promise<void> {
  const kv = openKv(m.endpoint);
  try {
    const { kvs } = await readPrefix(kv, PREFIX, { serializable });
    const bad = unmatchedAcks(load.acked, kvs);
    assert.deepEqual(bad.slice(0, 10), [], `${bad.length} of ${load.acked.size} acknowledged puts not read back through ${m.name}${serializable ? ' (serializable)' : ''}`);
  } finally {
    kv.close();
  }
}

for (const kind of serverKinds()) {
  void describe(`leader crash in a 3-member ${kind} cluster`, () => {
    void it('elects a new leader, resumes writes, catches the restarted member up and loses no acknowledged write', async (t) => {
      const members = await startCluster(kind, 3);
      const { leader: crashed, followers: survivors } = await waitForLeader(members);
      const load = new WriteLoad({ endpoints: members.map((m) => m.endpoint), writers: WRITERS, prefix: PREFIX });
      try {
        await eventually(`${PROGRESS} puts acknowledged before the crash`, async () => (load.acked.size >= PROGRESS ? true : undefined));
        const crashAt = Date.now();
        await crashed.kill9();
        t.diagnostic(`killed leader ${crashed.name} after ${load.acked.size} acknowledged puts`);
        assert.deepEqual(load.failures.filter((f) => f.at < crashAt).slice(0, 5), [], 'no put failed before the crash');

        const { leader: next } = await waitForLeader(survivors);
        const electedAt = Date.now();
        t.diagnostic(`new leader ${next.name}`);
        await eventually(`${PROGRESS} puts acknowledged after the new leader was seen`, async () => (load.ackedAfter(electedAt) >= PROGRESS ? true : undefined), {
          describe: () => `${load.ackedAfter(electedAt)} acknowledged; last failures: ${JSON.stringify(load.failures.slice(-3))}`,
        });

        await crashed.restart();
        const restartedAt = Date.now();
        await eventually(`${PROGRESS} puts acknowledged after the restart`, async () => (load.ackedAfter(restartedAt) >= PROGRESS ? true : undefined));
      } finally {
        await load.stop();
      }
      const failedAroundCrash = load.failures.length;
      t.diagnostic(`${load.acked.size} puts acknowledged of ${load.attempted}; ${failedAroundCrash} failed around the crash`);
      if (failedAroundCrash > 0) t.diagnostic(`e.g. ${load.failures[0].endpoint}: ${load.failures[0].error}`);

      // Caught up: with the load stopped, the restarted member applies what the others hold.
      let last = '';
      await eventually(`${crashed.name} applies everything the others hold`, async () => {
        const { statuses, result } = await endpointStatus(members.map((m) => m.endpoint));
        last = result.stdout + result.stderr;
        if (result.code !== 0 || statuses.length !== 3) return undefined;
        const mine = statuses.find((s) => s.endpoint === crashed.endpoint)!;
        const top = statuses.reduce((max, s) => (s.raftIndex > max ? s.raftIndex : max), 0n);
        return mine.raftAppliedIndex >= top ? true : undefined;
      }, { describe: () => last });

      await assertAllAcked(crashed, load, true);
      for (const m of members) await assertAllAcked(m, load, false);
    });
  });
}
