/**
 * One test per claim of the Raft paper (Ongaro & Ousterhout, "In Search of an Understandable
 * Consensus Algorithm", Figure 3 and §5), each on a small in-process cluster driven step by step.
 * Every run also checks the Figure 3 invariants after each stabilization (harness/invariants.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { message, MessageType } from '../../../server/raft/index.js';
import { entry, ids, logOf } from './harness/build.js';
import { InvariantChecker } from './harness/invariants.js';
import { Network } from './harness/network.js';

function stabilize(net: Network, checker: InvariantChecker, drop?: Parameters<Network['stabilize']>[1]): void {
  net.stabilize(1000, drop);
  checker.check();
}

const persisted = (net: Network, id: bigint): string[] => {
  const st = net.get(id).storage;
  const r = st.entries(st.firstIndex(), st.lastIndex() + 1, Number.MAX_SAFE_INTEGER);
  assert.ok(r.ok);
  return r.value.map((e) => `${e.term}/${e.index}`);
};

void test('§5.2 election safety: two candidates of one term cannot both win', () => {
  const net = Network.cluster(3);
  const checker = new InvariantChecker(net);
  // 1 and 2 campaign at the same time for term 1; node 3 receives both requests.
  net.get(1n).node.campaign();
  net.get(2n).node.campaign();
  stabilize(net, checker);
  const leaders = net.leaders();
  assert.equal(leaders.length, 1);
  assert.equal(leaders[0]!.term, 1);
  assert.equal(net.get(3n).node.status().vote, 1n, 'node 3 granted the first request it saw');
});

void test('§5.2 a vote, once persisted, survives a restart: no second vote in the same term', () => {
  const net = Network.cluster(3);
  net.cut(1n, 2n);
  net.cut(2n, 1n);
  net.get(1n).node.campaign();
  net.stabilize(); // node 3 votes for 1 in term 1
  assert.equal(net.get(3n).storage.hardState().vote, 1n);
  net.restart(3n);
  const s = net.get(3n).node.status();
  assert.equal(s.term, 1);
  assert.equal(s.vote, 1n);
  // Node 2 asks for a vote in term 1 too: refused.
  net.get(3n).node.step(message({ type: MessageType.MsgVote, from: 2n, to: 3n, term: 1, index: 5, logTerm: 1 }));
  net.handleReady(3n);
  const reply = net.queue.find((m) => m.from === 3n && m.to === 2n);
  assert.equal(reply?.type, MessageType.MsgVoteResp);
  assert.equal(reply?.reject, true);
});

void test('§5.1 a message with a stale term is ignored; a higher term turns a leader into a follower', () => {
  const net = Network.cluster(3);
  net.get(1n).node.campaign();
  net.stabilize();
  net.isolate(1n);
  net.get(2n).node.campaign();
  net.stabilize();
  assert.equal(net.get(2n).node.status().raftState, 'Leader');
  assert.equal(net.get(2n).node.status().term, 2);
  // A stale MsgApp from the old leader changes nothing on node 3.
  const before = persisted(net, 3n);
  net.get(3n).node.step(message({ type: MessageType.MsgApp, from: 1n, to: 3n, term: 1, index: 2, logTerm: 2, entries: [entry(1, 3, 'stale')] }));
  net.handleReady(3n);
  assert.deepEqual(persisted(net, 3n), before);
  assert.equal(net.get(3n).node.status().term, 2);
  // The old leader meets term 2 and steps down.
  net.heal();
  net.tick(2n);
  net.stabilize();
  const s1 = net.get(1n).node.status();
  assert.equal(s1.raftState, 'Follower');
  assert.equal(s1.term, 2);
  assert.equal(s1.lead, 2n);
});

void test('§5.2 election timeouts are randomized in [electionTicks, 2 * electionTicks) by the injected rng', () => {
  for (const [r, expected] of [
    [0, 10],
    [0.5, 15],
    [0.999, 19],
  ] as const) {
    const net = new Network();
    net.add(1n, { voters: ids(1, 2), rng: () => r });
    net.add(2n, { voters: ids(1, 2) });
    let ticks = 0;
    while (net.get(1n).node.status().raftState === 'Follower') {
      net.tick(1n);
      ticks++;
      assert.ok(ticks <= 20);
    }
    assert.equal(ticks, expected, `rng ${r}`);
  }
});

void test('§5.2 a split vote ends with a new election at a higher term', () => {
  const net = Network.cluster(4);
  const checker = new InvariantChecker(net);
  // 1 and 2 each get one vote besides their own (2 of 4: no quorum).
  net.partition([ids(1, 3), ids(2, 4)]);
  net.get(1n).node.campaign();
  net.get(2n).node.campaign();
  stabilize(net, checker);
  assert.equal(net.leaders().length, 0);
  net.heal();
  net.tick(1n, 10); // node 1's randomized timeout (rng 0) is 10 ticks
  stabilize(net, checker);
  const leaders = net.leaders();
  assert.deepEqual(leaders, [{ id: 1n, term: 2 }]);
});

void test('§5.2 a candidate that hears from a leader of its term becomes its follower', () => {
  const net = Network.cluster(3);
  net.get(1n).node.campaign();
  net.handleReady(1n); // 1 is a candidate of term 1; its vote requests are lost
  net.queue = [];
  // Meanwhile node 2 won term 1 and sends its first heartbeat.
  net.get(1n).node.step(message({ type: MessageType.MsgHeartbeat, from: 2n, to: 1n, term: 1 }));
  const s = net.get(1n).node.status();
  assert.equal(s.raftState, 'Follower');
  assert.equal(s.lead, 2n);
  assert.equal(s.term, 1);
});

void test('§5.3 log matching: the leader forces followers to duplicate its log (Figure 7)', () => {
  const leaderLog = [1, 1, 1, 4, 4, 5, 5, 6, 6, 6];
  const followers = [
    [1, 1, 1, 4, 4, 5, 5, 6, 6], // (a) missing entries
    [1, 1, 1, 4], // (b)
    [1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 6], // (c) extra uncommitted entry
    [1, 1, 1, 4, 4, 5, 5, 6, 6, 6, 7, 7], // (d) extra entries of a later term
    [1, 1, 1, 4, 4, 4, 4], // (e) missing and extra
    [1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3], // (f) a leader of terms 2 and 3 that never committed
  ];
  const voters = ids(1, 2, 3, 4, 5, 6, 7);
  const net = new Network({ voters });
  const checker = new InvariantChecker(net);
  const hs = { term: 7, vote: 0n, commit: 3 };
  net.add(1n, { entries: logOf(leaderLog), hardState: hs });
  followers.forEach((terms, k) => net.add(BigInt(k + 2), { entries: logOf(terms), hardState: hs }));
  net.get(1n).node.campaign();
  stabilize(net, checker);
  assert.equal(net.get(1n).node.status().raftState, 'Leader');
  assert.equal(net.get(1n).node.status().term, 8);
  const expected = [...leaderLog, 8].map((t, i) => `${t}/${i + 1}`);
  for (const id of net.ids()) assert.deepEqual(persisted(net, id), expected, `node ${id}`);
  for (const id of net.ids()) assert.equal(net.get(id).node.status().commit, 11);
});

void test('§5.3 a follower refuses entries whose predecessor it does not have, and hints where to resume', () => {
  const net = new Network({ voters: ids(1, 2) });
  net.add(1n);
  net.add(2n, { entries: logOf([1, 1, 2]), hardState: { term: 3, vote: 0n, commit: 1 } });
  net.get(2n).node.step(message({ type: MessageType.MsgApp, from: 1n, to: 2n, term: 3, index: 5, logTerm: 3, entries: [entry(3, 6)] }));
  net.handleReady(2n);
  const resp = net.queue.find((m) => m.type === MessageType.MsgAppResp);
  assert.ok(resp);
  assert.equal(resp.reject, true);
  assert.equal(resp.index, 5);
  // Its last entry (3, term 2) is the highest that can match an entry of term <= 3.
  assert.equal(resp.rejectHint, 3);
  assert.equal(resp.logTerm, 2);
  assert.deepEqual(persisted(net, 2n), ['1/1', '1/2', '2/3']);
});

void test('§5.3 a conflicting uncommitted suffix is deleted and replaced by the leader\'s entries', () => {
  const net = new Network({ voters: ids(1, 2) });
  net.add(1n);
  net.add(2n, { entries: logOf([1, 2, 2, 2]), hardState: { term: 2, vote: 0n, commit: 2 } });
  net.get(2n).node.step(message({ type: MessageType.MsgApp, from: 1n, to: 2n, term: 3, index: 2, logTerm: 2, commit: 2, entries: [entry(3, 3), entry(3, 4), entry(3, 5)] }));
  net.handleReady(2n);
  assert.deepEqual(persisted(net, 2n), ['1/1', '2/2', '3/3', '3/4', '3/5']);
});

void test('§5.3 AppendEntries is idempotent: a duplicated or reordered old MsgApp does not truncate the log', () => {
  const net = new Network({ voters: ids(1, 2) });
  net.add(1n);
  net.add(2n, { entries: logOf([1, 1]), hardState: { term: 1, vote: 0n, commit: 1 } });
  const first = message({ type: MessageType.MsgApp, from: 1n, to: 2n, term: 1, index: 2, logTerm: 1, commit: 1, entries: [entry(1, 3)] });
  const second = message({ type: MessageType.MsgApp, from: 1n, to: 2n, term: 1, index: 3, logTerm: 1, commit: 1, entries: [entry(1, 4)] });
  net.get(2n).node.step(first);
  net.get(2n).node.step(second);
  net.get(2n).node.step(first); // duplicate arrives late
  net.handleReady(2n);
  assert.deepEqual(persisted(net, 2n), ['1/1', '1/2', '1/3', '1/4']);
  const acks = net.queue.filter((m) => m.type === MessageType.MsgAppResp).map((m) => m.index);
  // The late duplicate acknowledges only what it carried; the leader ignores that as stale.
  assert.deepEqual(acks, [3, 4, 3]);
});

void test('§5.4.1 election restriction: a voter refuses a candidate whose log is less up to date', () => {
  const cases = [
    { candidate: [1, 1], voter: [1, 2], granted: false, why: 'lower last term' },
    { candidate: [1, 1], voter: [1, 1, 1], granted: false, why: 'same last term, shorter' },
    { candidate: [1, 1, 1], voter: [1, 1], granted: true, why: 'same last term, longer' },
    { candidate: [2], voter: [1, 1, 1], granted: true, why: 'higher last term, shorter' },
  ];
  for (const c of cases) {
    const net = new Network({ voters: ids(1, 2) });
    net.add(1n, { entries: logOf(c.candidate), hardState: { term: 2, vote: 0n, commit: 0 } });
    net.add(2n, { entries: logOf(c.voter), hardState: { term: 2, vote: 0n, commit: 0 } });
    net.get(1n).node.campaign();
    net.stabilize();
    assert.equal(net.get(1n).node.status().raftState === 'Leader', c.granted, c.why);
  }
});

void test('§5.4 leader completeness: only a node holding every committed entry can be elected', () => {
  const net = Network.cluster(5);
  const checker = new InvariantChecker(net);
  net.get(1n).node.campaign();
  stabilize(net, checker);
  // Entry "x" commits on 1, 2, 3 only.
  net.partition([ids(1, 2, 3), ids(4, 5)]);
  net.get(1n).node.propose(Buffer.from('x'));
  stabilize(net, checker);
  assert.equal(net.get(1n).node.status().commit, 2);
  // Leader 1 is gone. Node 4 (without x) cannot win: 2 and 3 refuse it.
  net.heal();
  net.isolate(1n);
  net.get(4n).node.campaign();
  stabilize(net, checker);
  assert.notEqual(net.get(4n).node.status().raftState, 'Leader');
  net.get(2n).node.campaign();
  stabilize(net, checker);
  const s2 = net.get(2n).node.status();
  assert.equal(s2.raftState, 'Leader');
  assert.ok(persisted(net, 2n).includes('1/2'));
  for (const id of ids(2, 3, 4, 5)) assert.ok(net.get(id).applied.some((a) => a.data === 'x'), `node ${id} applied x`);
});

void test('§5.4.2 entries of an earlier term are not committed by counting replicas (Figure 8)', () => {
  // S1 led term 2 and got (2,2) onto S2 only; S5 led term 3 and wrote (3,2) locally. Now S1 is
  // elected for term 4 (votes of S2, S3) and replicates (2,2) onto S3: a majority stores it,
  // but it must not be committed by counting, since S5 could still be elected and overwrite it.
  const voters = ids(1, 2, 3, 4, 5);
  const net = new Network({ voters, maxSizePerMsg: 1 });
  const checker = new InvariantChecker(net);
  const hs = { term: 3, vote: 0n, commit: 1 };
  net.add(1n, { entries: logOf([1, 2]), hardState: hs });
  net.add(2n, { entries: logOf([1, 2]), hardState: hs });
  net.add(3n, { entries: logOf([1]), hardState: hs });
  net.add(4n, { entries: logOf([1]), hardState: hs });
  net.add(5n, { entries: logOf([1, 3]), hardState: hs });
  net.partition([ids(1, 2, 3), ids(4, 5)]);
  net.get(1n).node.campaign();
  // S3 may take (2,2) but not the term-4 no-op at index 3 (lost in transit once it has (2,2)).
  const holdNoop = (m: { type: string; to: bigint; entries: readonly { index: number }[] }) =>
    m.type === MessageType.MsgApp && m.to === 3n && m.entries.some((e) => e.index === 3) && net.get(3n).storage.lastIndex() >= 2;
  stabilize(net, checker, holdNoop);
  const s1 = net.get(1n).node.status();
  assert.equal(s1.raftState, 'Leader');
  assert.equal(s1.term, 4);
  assert.equal(s1.progress.get(3n)?.match, 2, 'S3 stores (2,2)');
  assert.equal(s1.commit, 1, '(2,2) is on a majority (S1, S2, S3) yet not committed');
  // Once the term-4 entry reaches a majority, both commit.
  net.tick(1n);
  stabilize(net, checker);
  assert.equal(net.get(1n).node.status().commit, 3);
});

void test('§5.4.3 state machine safety: every node applies the same entry at each index', () => {
  const net = Network.cluster(5);
  const checker = new InvariantChecker(net);
  net.get(1n).node.campaign();
  stabilize(net, checker);
  for (let round = 0; round < 6; round++) {
    const leader = net.leaders().sort((a, b) => (a.term > b.term ? -1 : 1))[0]!.id;
    net.get(leader).node.propose(Buffer.from(`v${round}`));
    // Partition around a different node each round, then elect someone on the majority side.
    const cut = BigInt((round % 5) + 1);
    net.isolate(cut);
    stabilize(net, checker);
    const candidate = BigInt(((round + 1) % 5) + 1);
    net.get(candidate).node.campaign();
    stabilize(net, checker);
    net.heal();
    net.tick(candidate);
    stabilize(net, checker);
  }
  const lists = net.ids().map((id) => net.get(id).applied.map((a) => `${a.index}:${a.data}`).join(','));
  const longest = lists.reduce((a, b) => (b.length > a.length ? b : a));
  for (const l of lists) assert.ok(longest.startsWith(l), 'applied logs are prefixes of one another');
});

void test('§5.5 a follower that crashes before persisting loses nothing acknowledged; the leader retries', () => {
  const net = Network.cluster(3);
  const checker = new InvariantChecker(net);
  net.get(1n).node.campaign();
  stabilize(net, checker);
  net.get(1n).node.propose(Buffer.from('a'));
  net.handleReady(1n);
  net.deliverAll(); // MsgApp reaches 2 and 3, which crash before handling their Ready
  net.restart(2n);
  net.restart(3n);
  assert.equal(net.get(2n).storage.lastIndex(), 1);
  stabilize(net, checker);
  assert.equal(net.get(1n).node.status().commit, 1, 'no acknowledgement, no commit');
  net.tick(1n); // heartbeat: the followers answer, the leader resends
  stabilize(net, checker);
  for (const id of ids(1, 2, 3)) assert.deepEqual(net.get(id).applied.map((a) => a.data), ['', 'a']);
});
