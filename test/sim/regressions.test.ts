/**
 * Seeds that once failed, replayed. A seed names a run of the scenario generator in
 * scenario.ts as it is now: when the generator changes, re-find the failing seeds (run the
 * seed range with the options below) and update this list.
 *
 * An entry with `expect` documents a behaviour outside the supported fault model: its seed
 * must still show the violation named (if it stops doing so, the entry is stale).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KNOWN_BUGS } from './known-bugs.js';
import { runSeed, type ScenarioOptions } from './scenario.js';
import { KvClient } from './world/kv-client.js';
import { World } from './world/world.js';

interface Regression {
  readonly seed: number;
  readonly note: string;
  readonly options?: ScenarioOptions;
  /** Omitted: the seed must pass. Otherwise: text its failure report must contain. */
  readonly expect?: { readonly violation: string };
}

const REGRESSIONS: readonly Regression[] = [
  ...KNOWN_BUGS.flatMap((b) => b.seeds.map((seed) => ({ seed, note: `open bug ${b.id}: ${b.summary}` }))),
  {
    seed: 107,
    note:
      'a forwarded proposal (MsgProp) delivered twice is appended and applied twice (put c4.5 at revisions 4 and 5): ' +
      'the member does not deduplicate requests, so the peer transport must never deliver a frame twice',
    options: { duplicateProposals: true },
    expect: { violation: 'value c4.5 read with modRevision 5' },
  },
];

for (const r of REGRESSIONS) {
  void test(`seed ${r.seed}: ${r.note}`, async () => {
    const res = await runSeed(r.seed, r.options);
    if (r.expect === undefined) {
      if (res.failure) assert.fail(res.failure.report());
      return;
    }
    assert.ok(res.failure, `seed ${r.seed} no longer fails: the regression entry is stale`);
    const report = res.failure.report();
    assert.ok(report.includes(r.expect.violation), report);
  });
}

/**
 * Open bug snapshot-install-crash, directed: a member catches up by a snapshot, and the
 * power fails after the image replaced its backend (synced) but before its WAL marker was
 * fsynced. It must start again and catch up.
 */
void test('directed: a member that loses power while installing a snapshot restarts and catches up', async () => {
  const w = await World.create({ seed: 11, snapshotCount: 5, catchUpEntries: 0, disk: { fsyncMinMs: 20, fsyncMaxMs: 20 } });
  assert.ok(await w.runUntil(() => w.leader() !== undefined, 5000));
  const leader = w.leader()!;
  const victim = w.nodes.find((n) => n !== leader)!;
  w.crash(victim.id, 'power');
  const client = new KvClient(w, 1, 4000);
  let answered = 0;
  for (let i = 0; i < 12; i++) void client.invoke(leader.id, `k${i}`, { kind: 'put', value: `v${i}` }).then(() => answered++);
  assert.ok(await w.runUntil(() => answered === 12, 5000));
  w.restart(victim.id);
  // The window: the store already holds the snapshot's state, the member has not taken its index yet.
  const installing = (): boolean => {
    const inc = victim.running;
    return inc?.started === true && inc.store.consistentIndex > inc.member.appliedIndex;
  };
  assert.ok(await w.runUntil(installing, 5000, 1), 'the member never installed a snapshot');
  w.crash(victim.id, 'power');
  w.restart(victim.id);
  const target = leader.running!.member.appliedIndex;
  const caughtUp = await w.runUntil(() => victim.running?.started === true && victim.running.member.appliedIndex >= target, 5000);
  assert.ok(caughtUp, `m${victim.id} did not catch up`);
  assert.deepEqual(await w.compareStates(), []);
});
