/**
 * Seeds that once failed, replayed, and directed tests of the bugs they found. A seed names
 * a run of the scenario generator in scenario.ts and of the server code as they are now:
 * when either changes, a seed may no longer reach the state that failed — re-find the
 * failing seeds (run the seed range with the options below) and update this list; the
 * directed tests pin each bug down independently of seeds. Scenario options that switch off
 * later additions to the generator (v2Writes, leases) replay the runs a seed named when it
 * was recorded.
 *
 * Behaviour outside the supported fault model (duplicated frames) is shown by a test that
 * searches a seed range, since which seed shows it moves with every change of timing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KNOWN_BUGS } from './known-bugs.js';
import { runSeed, type ScenarioOptions } from './scenario.js';
import { rangeAll } from '../../server/apply/range-params.js';
import { openMvccStore } from '../../server/mvcc/store.js';
import { createMemoryBackend } from '../../server/storage/memory-backend.js';
import { KvClient, v2Put } from './world/kv-client.js';
import { World } from './world/world.js';

interface Regression {
  readonly seed: number;
  readonly note: string;
  readonly options?: ScenarioOptions;
}

const REGRESSIONS: readonly Regression[] = [
  ...KNOWN_BUGS.flatMap((b) => b.seeds.map((seed) => ({ seed, note: `open bug ${b.id}: ${b.summary}` }))),
  {
    seed: 20,
    note:
      'fixed snapshot-install-keeps-stale-v2: a member that installed a snapshot kept its old in-memory v2 store (and ' +
      'cluster version) and persisted it over the image with its next v2 write',
    options: { leases: false },
  },
  { seed: 51, note: 'fixed snapshot-install-keeps-stale-v2 (the cluster bucket diverged)', options: { leases: false } },
  {
    seed: 371,
    note:
      'fixed flush/apply race: with a backend whose writes resolve in the microtask that issued them, a coalesced re-flush ' +
      "could run between an entry's txn.end() and the applied index moving on, and persist that entry's changes under the " +
      'previous consistent index (index 20 with revision 9 instead of 8)',
    options: { immediateBackendWrites: true, leases: false },
  },
];

for (const r of REGRESSIONS) {
  void test(`seed ${r.seed}: ${r.note}`, async () => {
    const res = await runSeed(r.seed, r.options);
    if (res.failure) assert.fail(res.failure.report());
  });
}

/**
 * Outside the fault model: a forwarded proposal (MsgProp) delivered twice is appended and applied
 * twice — members do not deduplicate proposals, so the peer transport must never deliver a frame
 * twice. Which seeds show it moves with every change of timing, so a range is searched: some seed
 * must show a value written twice (read at a revision other than the one its write answered with).
 */
void test('duplicated MsgProp frames apply a write twice (why the transport must never duplicate a frame)', async () => {
  const seen: string[] = [];
  for (let seed = 1; seed <= 200 && seen.length === 0; seed++) {
    const res = await runSeed(seed, { duplicateProposals: true, leases: false });
    const report = res.failure?.report() ?? '';
    if (/value \S+ read with modRevision \d+/.test(report)) seen.push(`seed ${seed}`);
  }
  assert.ok(seen.length > 0, 'no seed in 1..200 showed a write applied twice with duplicated MsgProp frames');
});

/**
 * Directed (fixed snapshot-install-crash, found by seeds 150 and 1504): a member catching up by a snapshot is killed after its
 * WAL recorded the snapshot marker but before the image replaced its backend. It must
 * finish the install from the kept image when it restarts, and catch up.
 */
void test('directed: a member killed between recording a snapshot and installing its image restarts and catches up', async () => {
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
  const markerAhead = (): boolean => {
    const inc = victim.running;
    return inc?.started === true && inc.wal.written.base > inc.store.consistentIndex;
  };
  assert.ok(await w.runUntil(markerAhead, 5000, 1), 'the member never recorded a snapshot');
  const lines: string[] = [];
  w.trace.echo = (line) => lines.push(line);
  w.crash(victim.id, 'kill');
  w.restart(victim.id);
  const target = leader.running!.member.appliedIndex;
  assert.ok(await w.runUntil(() => victim.running?.started === true && victim.running.member.appliedIndex >= target, 5000), `m${victim.id} did not catch up`);
  assert.ok(lines.some((l) => l.includes('finished installing the snapshot')), 'the restart did not finish the interrupted install');
  assert.deepEqual(await w.compareStates(), []);
});

/**
 * Directed (fixed compaction-drops-unflushed-tombstone, found by seed 3806): a key is deleted, the
 * store compacts at the deletion's revision before the tombstone was flushed, a synced
 * flush follows (as a snapshot's is), and the power fails before the compaction's
 * background pass ran. After recovery the key must still be deleted.
 */
void test('directed: a key deleted just before a compaction stays deleted after a power loss', async () => {
  const backend = createMemoryBackend();
  const store = await openMvccStore(backend);
  const key = Buffer.from('k');
  let txn = store.beginWrite();
  txn.put(key, Buffer.from('v'), 0n);
  txn.end();
  await store.flush(1n);
  txn = store.beginWrite();
  txn.deleteRange(key, Buffer.alloc(0));
  const deletedAt = txn.end().revision;
  const compaction = store.compact(deletedAt);
  assert.ok(compaction.ok);
  await store.flush(2n, [], { sync: true });
  const recovered = await openMvccStore(backend.crash());
  const read = await recovered.range(rangeAll(key, Buffer.alloc(0)));
  await compaction.value.done;
  assert.ok(read.ok);
  assert.deepEqual(
    read.value.kvs.map((kv) => kv.value.toString()),
    [],
    `the key deleted at revision ${deletedAt} is live again after recovery (consistent index ${recovered.consistentIndex})`,
  );
});

/**
 * Directed (fixed snapshot-install-keeps-stale-v2): a member catches up by a snapshot
 * that holds a v2 write it never applied; its v2 store must then match the others'.
 */
void test('directed: a member that installs a snapshot holding v2 writes has the same v2 key space', async () => {
  const w = await World.create({ seed: 12, snapshotCount: 4, catchUpEntries: 0 });
  assert.ok(await w.runUntil(() => w.leader() !== undefined, 5000));
  const leader = w.leader()!;
  const lagging = w.nodes.find((n) => n !== leader)!;
  w.crash(lagging.id, 'power');
  let done = false;
  void v2Put(w, leader.id, '/v2/a', 'one').then(() => (done = true));
  assert.ok(await w.runUntil(() => done, 5000));
  const client = new KvClient(w, 1, 4000);
  let answered = 0;
  for (let i = 0; i < 8; i++) void client.invoke(leader.id, `k${i}`, { kind: 'put', value: `v${i}` }).then(() => answered++);
  assert.ok(await w.runUntil(() => answered === 8, 5000));
  w.restart(lagging.id);
  const target = leader.running!.member.appliedIndex;
  assert.ok(await w.runUntil(() => (lagging.running?.member.appliedIndex ?? 0n) >= target, 5000));
  assert.ok(w.net.stats.snapshots > 0, 'the member did not catch up by a snapshot');
  assert.deepEqual(lagging.running!.v2.toJSON(), leader.running!.v2.toJSON());
});
