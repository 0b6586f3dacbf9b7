/**
 * A leader stopped with SIGTERM under a write load hands leadership over before it exits:
 * - kvstore logs `leadership transfer starting` and `leadership transfer finished` (naming the
 *   new leader) before the process exits;
 * - as soon as the process has exited, a survivor is leader (no election timeout to wait for),
 *   and the survivors soon all name it;
 * - clients holding all three endpoints lose no write: a put that fails is retried once on
 *   another running member, and that retry succeeds.
 *
 * The retry goes to a member still running, as a client balancer that skips endpoints it
 * cannot reach would do. Runs against every server kind of serverKinds(); all waits are
 * bounded by GENEROUS_MS.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  endpointStatus, eventually, openKv, readPrefix, serverKinds, startCluster, unmatchedAcks, waitForLeader, WriteLoad,
} from '../support/processes.js';

const PREFIX = 'stop/';
const WRITERS = 20;
const PROGRESS = 500;

interface LogLine {
  msg?: string;
  'new-leader-member-id'?: string;
}

/** The JSON log lines of the member's last run, up to its exit marker (the marker's offset too). */
function lastRun(logs: string): { lines: LogLine[]; exited: boolean } {
  const run = logs.slice(logs.lastIndexOf('\n--- kvstore ') + 1);
  const exitAt = run.indexOf('\n--- exited:');
  const body = exitAt < 0 ? run : run.slice(0, exitAt);
  const lines = body.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as LogLine);
  return { lines, exited: exitAt >= 0 };
}

for (const kind of serverKinds()) {
  void describe(`graceful stop of the leader of a 3-member ${kind} cluster`, () => {
    void it('hands leadership over before exiting; no write fails beyond one retry', async (t) => {
      const members = await startCluster(kind, 3);
      const { leader: stopped, followers: survivors } = await waitForLeader(members);
      const running = survivors.map((m) => m.endpoint);
      let turn = 0;
      const load = new WriteLoad({
        endpoints: members.map((m) => m.endpoint),
        writers: WRITERS,
        prefix: PREFIX,
        retryOn: (failed) => {
          const others = running.filter((e) => e !== failed);
          return others[turn++ % others.length];
        },
      });
      try {
        await eventually(`${PROGRESS} puts acknowledged before the stop`, async () => (load.acked.size >= PROGRESS ? true : undefined));
        const code = await stopped.stop('SIGTERM');
        t.diagnostic(`stopped leader ${stopped.name} (exit ${code ?? 'by signal'}) after ${load.acked.size} acknowledged puts`);

        // The transfer completed before the exit, so a survivor already is leader.
        const { statuses, result } = await endpointStatus(running);
        assert.ok(statuses.some((s) => s.memberId === s.leader), `a survivor is leader right after the exit:\n${result.stdout}${result.stderr}`);
        const { leader: next } = await waitForLeader(survivors);
        t.diagnostic(`new leader ${next.name}`);

        if (kind === 'kvstore') {
          const { lines, exited } = lastRun(stopped.logs());
          assert.ok(exited, 'the process exited');
          const msgs = lines.map((l) => l.msg);
          const starting = msgs.indexOf('leadership transfer starting');
          const finished = msgs.indexOf('leadership transfer finished');
          assert.ok(starting >= 0, `'leadership transfer starting' logged before the exit; log:\n${msgs.join('\n')}`);
          assert.ok(finished > starting, `'leadership transfer finished' logged after it and before the exit; log:\n${msgs.join('\n')}`);
          const status = statuses.find((s) => s.endpoint === next.endpoint);
          assert.equal(lines[finished]['new-leader-member-id'], status?.memberId, 'the transferee is the new leader');
        }

        const stoppedAt = Date.now();
        await eventually(`${PROGRESS} puts acknowledged after the stop`, async () => (load.ackedAfter(stoppedAt) >= PROGRESS ? true : undefined));
      } finally {
        await load.stop();
      }
      t.diagnostic(`${load.acked.size} puts acknowledged of ${load.attempted}; ${load.failures.length} retried`);
      for (const error of new Set(load.failures.map((f) => f.error))) t.diagnostic(`first attempt failed with: ${error}`);
      const lost = load.failures.filter((f) => f.retry?.error !== undefined || f.retry === undefined);
      assert.deepEqual(lost.slice(0, 5), [], `${lost.length} puts failed on their retry too`);

      const kv = openKv(survivors[0].endpoint);
      try {
        const { kvs } = await readPrefix(kv, PREFIX);
        const bad = unmatchedAcks(load.acked, kvs);
        assert.deepEqual(bad.slice(0, 10), [], `${bad.length} acknowledged puts not read back`);
      } finally {
        kv.close();
      }
    });
  });
}
