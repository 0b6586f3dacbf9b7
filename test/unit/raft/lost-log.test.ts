/**
 * A follower told to commit past the end of its log has lost entries it acknowledged (its data
 * was wiped or truncated): stepping that heartbeat throws etcd's message instead of capping the
 * commit index, so the member stops rather than vote with amnesia. Legitimate traffic never
 * trips it: a leader's heartbeat carries min(match, committed).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { message, MessageType, type Message } from '../../../server/raft/index.js';
import { logOf } from './harness/build.js';
import { Network } from './harness/network.js';

const LOST = /^Error: tocommit\((\d+)\) is out of range \[lastIndex\((\d+)\)\]\. Was the raft log corrupted, truncated, or lost\?$/;

/** A 3-voter cluster led by 1 that has committed `puts` entries besides the no-op. */
function ledCluster(puts: number, opts: Parameters<typeof Network.cluster>[1] = {}): Network {
  const net = Network.cluster(3, opts);
  net.get(1n).node.campaign();
  net.stabilize();
  for (let i = 0; i < puts; i++) net.get(1n).node.propose(Buffer.from(`v${i}`));
  net.stabilize();
  return net;
}

const heartbeatsTo = (net: Network, to: bigint): Message[] => net.queue.filter((m) => m.type === MessageType.MsgHeartbeat && m.to === to);

void test('a heartbeat within the log commits; past its end it throws etcd\'s message and commits nothing', () => {
  const net = Network.cluster(3, { entries: logOf([1, 1, 1]), hardState: { term: 1, vote: 0n, commit: 1 } });
  const f = net.get(3n).node;
  f.step(message({ type: MessageType.MsgHeartbeat, from: 1n, to: 3n, term: 1, commit: 3 }));
  assert.equal(f.status().commit, 3);
  assert.throws(() => f.step(message({ type: MessageType.MsgHeartbeat, from: 1n, to: 3n, term: 1, commit: 5 })), (e: unknown) => {
    const m = LOST.exec(String(e));
    return m !== null && m[1] === '5' && m[2] === '3';
  });
  assert.equal(f.status().commit, 3);
});

void test('a MsgApp never trips the check: it commits at most its last new entry', () => {
  const net = Network.cluster(3, { entries: logOf([1, 1, 1]), hardState: { term: 1, vote: 0n, commit: 1 } });
  const f = net.get(3n).node;
  f.step(message({ type: MessageType.MsgApp, from: 1n, to: 3n, term: 1, index: 2, logTerm: 1, commit: 9, entries: [] }));
  assert.equal(f.status().commit, 2);
});

void test('the leader heartbeats a lagging follower and a lagging learner with min(match, committed)', () => {
  const net = Network.cluster(3, { learners: [4n] });
  net.get(1n).node.campaign();
  net.stabilize();
  // 3 and 4 stop receiving appends: the leader commits with 2 alone.
  const noAppTo34 = (m: Message): boolean => m.type === MessageType.MsgApp && (m.to === 3n || m.to === 4n);
  for (let i = 0; i < 5; i++) net.get(1n).node.propose(Buffer.from(`v${i}`));
  net.stabilize(1000, noAppTo34);
  const leader = net.get(1n).node.status();
  assert.equal(leader.commit, 6);
  net.tick(1n);
  net.handleReady(1n);
  for (const to of [3n, 4n]) {
    const hb = heartbeatsTo(net, to);
    assert.equal(hb.length, 1);
    assert.equal(hb[0]!.commit, leader.progress.get(to)!.match);
    assert.ok(hb[0]!.commit < leader.commit);
  }
  net.stabilize(1000, noAppTo34);
  for (const to of [3n, 4n]) assert.equal(net.get(to).node.status().commit, 1);
  for (let i = 0; i < 3; i++) {
    net.get(1n).node.reportUnreachable(3n); // the lost appends: probe again
    net.get(1n).node.reportUnreachable(4n);
    net.tick(1n);
    net.stabilize();
  }
  for (const to of [3n, 4n]) assert.equal(net.get(to).node.status().commit, 6);
});

void test('a follower that caught up by snapshot takes heartbeats after it', () => {
  const net = ledCluster(0);
  const noAppTo3 = (m: Message): boolean => m.type === MessageType.MsgApp && m.to === 3n;
  for (let i = 0; i < 5; i++) net.get(1n).node.propose(Buffer.from(`v${i}`));
  net.stabilize(1000, noAppTo3);
  const l = net.get(1n);
  const at = l.appliedIndex();
  assert.equal(l.storage.createSnapshot(at, l.confStateAt(at), l.snapshotData()).ok, true);
  assert.equal(l.storage.compact(at).ok, true);
  net.get(1n).node.reportUnreachable(3n);
  net.tick(1n);
  net.stabilize();
  for (let i = 0; i < 3; i++) {
    net.tick(1n);
    net.stabilize();
  }
  assert.equal(net.get(3n).node.status().commit, at);
  assert.equal(net.get(3n).storage.snapshot().ok && net.get(3n).storage.firstIndex(), at + 1);
});

void test('a restarted member with its persisted log takes the leader\'s heartbeats', () => {
  const net = ledCluster(4);
  net.restart(3n);
  net.tick(1n);
  net.stabilize();
  net.get(1n).node.propose(Buffer.from('after'));
  net.stabilize();
  assert.equal(net.get(3n).node.status().commit, net.get(1n).node.status().commit);
});

void test('a member whose log was wiped throws at the leader\'s first heartbeat (lastIndex 0)', () => {
  const net = ledCluster(4);
  const committed = net.get(1n).node.status().commit;
  net.add(3n, { voters: [1n, 2n, 3n] }); // same id, empty storage
  net.tick(1n);
  net.handleReady(1n);
  const hb = heartbeatsTo(net, 3n);
  assert.equal(hb.length, 1);
  assert.equal(hb[0]!.commit, committed);
  assert.throws(() => net.deliver(hb[0]!), (e: unknown) => {
    const m = LOST.exec(String(e));
    return m !== null && m[1] === String(committed) && m[2] === '0';
  });
});
