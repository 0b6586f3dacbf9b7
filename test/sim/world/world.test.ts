/** The simulated world's parts: virtual scheduler, WAL and disk, network, and a small world. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EntryType, type Entry } from '../../../server/raft/log-types.js';
import { message, MessageType, type Message } from '../../../server/raft/index.js';
import { KvClient } from './kv-client.js';
import { SimBackend } from './sim-backend.js';
import { Prng } from './prng.js';
import { SimNetwork } from './sim-network.js';
import { SimDisk } from './sim-wal.js';
import { settle, VirtualScheduler, type Life } from './virtual-scheduler.js';
import { World } from './world.js';

async function drain(s: VirtualScheduler, untilMs = Infinity): Promise<void> {
  for (;;) {
    await settle();
    if (s.runNext(untilMs) === 'idle') return;
  }
}

const hooks = { onWritten: () => undefined, committedChainAt: () => undefined };
const entry = (index: number, term = 1): Entry => ({ index, term, type: EntryType.ENTRY_NORMAL, data: Buffer.from(`e${index}`) });

void test('prng: a seed gives one sequence; forks are independent of draws on the parent', () => {
  const a = new Prng(42);
  const b = new Prng(42);
  assert.deepEqual([a.float(), a.int(10), a.between(3, 7)], [b.float(), b.int(10), b.between(3, 7)]);
  const f1 = new Prng(42).fork('x').float();
  const p = new Prng(42);
  p.float();
  assert.equal(p.fork('x').float(), f1);
  assert.notEqual(new Prng(42).fork('y').float(), f1);
});

void test('scheduler: soon before later before timers; time moves only to the next timer', async () => {
  const s = new VirtualScheduler(0);
  const order: string[] = [];
  s.at(10, () => order.push(`timer@${s.now}`));
  s.at(5, () => {
    order.push(`timer@${s.now}`);
    s.later(() => order.push('later'));
    s.soon(() => order.push('soon'));
  });
  await drain(s);
  assert.deepEqual(order, ['timer@5', 'soon', 'later', 'timer@10']);
  assert.equal(s.now, 10);
});

void test('scheduler: a dead life loses its timers, intervals, tasks and sleeps', async () => {
  const s = new VirtualScheduler(0);
  const life: Life = { name: 'p', alive: true };
  const port = s.port(life);
  let ticks = 0;
  let slept = false;
  port.every(10, () => ticks++);
  void port.sleep(25).then(() => (slept = true));
  await drain(s, 21);
  assert.equal(ticks, 2);
  life.alive = false;
  port.soon(() => ticks++);
  await drain(s, 100);
  assert.equal(ticks, 2);
  assert.equal(slept, false);
});

void test('wal: a save resolves only once fsynced; a power loss keeps durable records only', async () => {
  const s = new VirtualScheduler(0);
  const disk = new SimDisk(Buffer.from('meta'));
  const life: Life = { name: 'p', alive: true };
  const { wal } = disk.open(s, life, new Prng(1), { fsyncMinMs: 10, fsyncMaxMs: 10 }, hooks);
  let first = false;
  let second = false;
  void wal.save([entry(1)], { term: 1, vote: 1n, commit: 0 }).then(() => (first = true));
  await drain(s, 5);
  void wal.save([entry(2)]).then(() => (second = true));
  await drain(s, 10);
  assert.equal(first, true);
  assert.equal(second, false, 'the second save waits for the next fsync');
  assert.equal(wal.written.lastIndex, 2);
  assert.equal(disk.durable.lastIndex, 1);
  life.alive = false;
  disk.crash(new Prng(1), 'none');
  await drain(s);
  assert.equal(second, false, 'a save lost in a crash never resolves');
  const reopened = disk.open(s, { name: 'q', alive: true }, new Prng(1), { fsyncMinMs: 1, fsyncMaxMs: 1 }, hooks);
  assert.deepEqual(reopened.contents.entries.map((e) => e.index), [1]);
  assert.equal(reopened.contents.hardState.vote, 1n);
});

void test('wal: a killed process keeps its unsynced writes; a gap is refused', async () => {
  const s = new VirtualScheduler(0);
  const disk = new SimDisk(Buffer.alloc(0));
  const life: Life = { name: 'p', alive: true };
  const { wal } = disk.open(s, life, new Prng(1), { fsyncMinMs: 10, fsyncMaxMs: 10 }, hooks);
  void wal.save([entry(1), entry(2)]);
  await assert.rejects(wal.save([entry(4)]), /gap/);
  life.alive = false;
  disk.crash(new Prng(1), 'all');
  assert.equal(disk.durable.lastIndex, 2);
});

void test('network: partitions and one-way cuts drop messages and report the peer unreachable', async () => {
  const s = new VirtualScheduler(0);
  const got: string[] = [];
  const unreachable: string[] = [];
  const net = new SimNetwork(s, new Prng(1), {
    deliver: (to, m) => got.push(`${m.from}>${to}`) > 0,
    deliverSnapshot: () => false,
    unreachable: (from, to) => unreachable.push(`${from}>${to}`),
    trace: () => undefined,
  });
  const hb = (from: bigint, to: bigint): Message => message({ type: MessageType.MsgHeartbeat, from, to, term: 1 });
  net.partition([[1n]]);
  net.send(hb(1n, 2n));
  net.send(hb(2n, 3n));
  net.heal();
  net.cutOneWay(3n, 2n);
  net.send(hb(3n, 2n));
  net.send(hb(2n, 3n));
  await drain(s);
  assert.deepEqual(got, ['2>3', '2>3']);
  assert.deepEqual(unreachable, ['1>2', '3>2']);
});

void test('world: three members elect a leader and serve a write and a linearizable read', async () => {
  const w = await World.create({ seed: 7 });
  assert.ok(await w.runUntil(() => w.leader() !== undefined, 5000));
  const c = new KvClient(w, 1, 4000);
  const follower = w.nodes.find((n) => n !== w.leader())!.id;
  const done: string[] = [];
  void c
    .invoke(w.leader()!.id, 'a', { kind: 'put', value: 'v' })
    .then(() => c.invoke(follower, 'a', { kind: 'get' }))
    .then(() => done.push('ok'));
  assert.ok(await w.runUntil(() => done.length === 1, 5000));
  const [p, g] = w.history.ops;
  assert.equal(p!.status, 'ok');
  assert.deepEqual(g!.output, { kind: 'get', value: 'v', modRevision: p!.revision });
  assert.deepEqual(await w.compareStates(), []);
});

void test('world: a member crashed by power loss recovers from its durable WAL and catches up', async () => {
  const w = await World.create({ seed: 8 });
  assert.ok(await w.runUntil(() => w.leader() !== undefined, 5000));
  const c = new KvClient(w, 1, 4000);
  let n = 0;
  for (let i = 0; i < 5; i++) void c.invoke(w.leader()!.id, `k${i}`, { kind: 'put', value: `v${i}` }).then(() => n++);
  assert.ok(await w.runUntil(() => n === 5, 5000));
  const victim = w.nodes.find((x) => x !== w.leader())!;
  w.crash(victim.id, 'power');
  assert.equal(victim.up, false);
  w.restart(victim.id);
  const leaderApplied = w.leader()!.running!.member.appliedIndex;
  assert.ok(await w.runUntil(() => victim.running?.started === true && victim.running.member.appliedIndex === leaderApplied, 5000));
  assert.deepEqual(await w.compareStates(), []);
});

void test('world: a member far behind a compacted log catches up by a snapshot', async () => {
  const w = await World.create({ seed: 9, snapshotCount: 4, catchUpEntries: 0 });
  assert.ok(await w.runUntil(() => w.leader() !== undefined, 5000));
  const leader = w.leader()!;
  const lagging = w.nodes.find((n) => n !== leader)!;
  w.crash(lagging.id, 'power');
  const c = new KvClient(w, 1, 4000);
  let n = 0;
  for (let i = 0; i < 10; i++) void c.invoke(leader.id, `k${i}`, { kind: 'put', value: `v${i}` }).then(() => n++);
  assert.ok(await w.runUntil(() => n === 10, 5000));
  w.restart(lagging.id);
  const target = leader.running!.member.appliedIndex;
  assert.ok(await w.runUntil(() => (lagging.running?.member.appliedIndex ?? 0) >= target, 5000));
  assert.ok(w.net.stats.snapshots > 0, 'no snapshot was sent');
  assert.deepEqual(await w.compareStates(), []);
});

void test('world: an added member joins and catches up; a removed member stops', async () => {
  const w = await World.create({ seed: 10 });
  assert.ok(await w.runUntil(() => w.leader() !== undefined, 5000));
  const added = w.membership.add(false)!;
  const leader = w.leader()!;
  assert.ok(await w.runUntil(() => w.node(added).running?.member.appliedIndex === leader.running!.member.appliedIndex, 5000));
  assert.deepEqual(leader.running!.membership.voters().map((m) => m.id), [1n, 2n, 3n, added]);
  const removed = w.nodes.find((x) => x !== leader && x.id !== added)!.id;
  w.membership.remove(removed);
  assert.ok(await w.runUntil(() => !w.node(removed).up, 5000));
  assert.equal(w.active.length, 3);
  assert.ok(!w.active.some((x) => x.id === removed));
});

void test('member: once stopped (its last flush done), no backend write follows, not even a flush that was due', async () => {
  const w = await World.create({ seed: 11 });
  assert.ok(await w.runUntil(() => w.leader() !== undefined, 5000));
  const leader = w.leader()!;
  const inc = leader.running!;
  const c = new KvClient(w, 1, 4000);
  const done: string[] = [];
  void c.invoke(leader.id, 'a', { kind: 'put', value: 'v' }).then(() => done.push('ok'));
  // Stop in the same turn the put is answered: its flush is still due.
  assert.ok(await w.runUntil(() => done.length === 1, 5000, 1));
  const backend = inc.backend as SimBackend;
  let stopped = false;
  void inc.member.stop().then(() => (stopped = true));
  assert.ok(await w.runUntil(() => stopped, 1000, 1));
  const writes = backend.writesIssued;
  await w.run(w.now + 100);
  assert.equal(backend.writesIssued, writes, 'a backend write after stop() resolved (the backend may be closed by then)');
});
