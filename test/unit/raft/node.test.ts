/** The public node API: configuration, the Ready/Advance contract, input errors, restart, determinism. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { EntryType } from '../../../server/raft/log-types.js';
import {
  ConfChangeType,
  createRaftNode,
  decodeConfChange,
  encodeConfChange,
  MemoryRaftStorage,
  message,
  MessageType,
  RaftErrorKind,
  type RaftConfig,
} from '../../../server/raft/index.js';
import { logOf } from './harness/build.js';
import { formatMessage } from './harness/format.js';
import { Network } from './harness/network.js';

const base = (over: Partial<RaftConfig> = {}): RaftConfig => ({
  id: 1n,
  voters: [1n],
  electionTicks: 10,
  heartbeatTicks: 1,
  preVote: false,
  checkQuorum: false,
  maxInflight: 4,
  maxSizePerMsg: 1024,
  rng: () => 0,
  storage: new MemoryRaftStorage(),
  ...over,
});

void test('an invalid config is refused at creation', () => {
  assert.throws(() => createRaftNode(base({ id: 0n })), /id must not be 0/);
  assert.throws(() => createRaftNode(base({ electionTicks: 1 })), /electionTicks/);
  assert.throws(() => createRaftNode(base({ maxInflight: 0 })), /maxInflight/);
  assert.throws(() => createRaftNode(base({ voters: [1n], learners: [1n] })), /both voter and learner/);
  assert.throws(() => createRaftNode(base({ rng: () => 1 })), /rng returned 1/);
});

void test('single voter: the leader commits its own entries only after they are persisted (advance)', () => {
  const storage = new MemoryRaftStorage();
  const n = createRaftNode(base({ storage }));
  assert.equal(n.campaign().ok, true);
  let rd = n.ready();
  assert.equal(rd.softState?.raftState, 'Leader');
  assert.deepEqual(rd.hardState, { term: 1, vote: 1n, commit: 0 });
  assert.equal(rd.entries.length, 1, 'the no-op of term 1');
  assert.equal(rd.committedEntries.length, 0, 'not persisted yet: not committed');
  assert.equal(rd.mustSync, true);
  assert.equal(rd.sendBeforePersist, false, 'term and vote changed in this Ready');
  storage.append(rd.entries);
  storage.setHardState(rd.hardState!);
  n.advance(rd);
  rd = n.ready();
  assert.deepEqual(rd.hardState, { term: 1, vote: 1n, commit: 1 });
  assert.deepEqual(rd.committedEntries.map((e) => e.index), [1]);
  assert.equal(rd.mustSync, false, 'a commit-only change needs no fsync');
  n.advance(rd);
  assert.equal(n.hasReady(), false);
  assert.equal(n.propose(Buffer.from('x')).ok, true);
  rd = n.ready();
  assert.equal(rd.sendBeforePersist, true, 'a settled leader may send while persisting');
  assert.equal(rd.entries[0]?.data.toString(), 'x');
  storage.append(rd.entries);
  n.advance(rd);
  rd = n.ready();
  assert.deepEqual(rd.committedEntries.map((e) => e.data.toString()), ['x']);
  n.advance(rd);
  assert.equal(n.status().applied, 2);
});

void test('a leader counts only what storage really holds: advancing without persisting commits nothing', () => {
  const n = createRaftNode(base());
  n.campaign();
  n.advance(n.ready());
  assert.equal(n.hasReady(), false);
  assert.equal(n.status().commit, 0);
});

void test('the Ready contract: one outstanding Ready, advanced with that very Ready', () => {
  const storage = new MemoryRaftStorage();
  const n = createRaftNode(base({ storage }));
  n.campaign();
  const rd = n.ready();
  assert.equal(n.hasReady(), false, 'nothing new is handed out before advance');
  assert.throws(() => n.ready(), /before advance/);
  assert.throws(() => n.advance({ ...rd }), /not the outstanding one/);
  storage.append(rd.entries);
  n.advance(rd);
  assert.equal(n.hasReady(), true, 'the persisted no-op is now committed');
});

void test('step refuses local message kinds and responses from unknown peers', () => {
  const n = createRaftNode(base({ voters: [1n, 2n] }));
  for (const type of [MessageType.MsgHup, MessageType.MsgBeat, MessageType.MsgCheckQuorum, MessageType.MsgUnreachable, MessageType.MsgSnapStatus]) {
    const r = n.step(message({ type, from: 2n, to: 1n }));
    assert.equal(!r.ok && r.error.kind, RaftErrorKind.StepLocalMessage, type);
  }
  const r = n.step(message({ type: MessageType.MsgAppResp, from: 7n, to: 1n, term: 1 }));
  assert.equal(!r.ok && r.error.kind, RaftErrorKind.StepPeerNotFound);
});

void test('without a leader, reads are refused; proposals are held, then handed back as dropped after two election timeouts', () => {
  const n = createRaftNode(base({ voters: [1n, 2n, 3n], electionTicks: 10 }));
  const p = n.propose(Buffer.from('x'));
  assert.equal(p.ok, true, 'held, waiting for a leader');
  const r = n.readIndex(Buffer.from('r'));
  assert.equal(!r.ok && r.error.kind, RaftErrorKind.ProposalDropped);
  n.campaign();
  const c = n.propose(Buffer.from('y'));
  assert.equal(c.ok, true, 'a candidate holds proposals too');
  const dropped: string[] = [];
  for (let i = 0; i < 21; i++) {
    n.tick();
    while (n.hasReady()) {
      const rd = n.ready();
      dropped.push(...rd.droppedProposals.map((e) => e.data.toString()));
      n.advance(rd);
    }
  }
  assert.deepEqual(dropped, ['x', 'y'], 'no leader appeared: both come back as dropped, once');
});

void test('a follower forwards proposals to its leader', () => {
  const net = Network.cluster(3);
  net.get(1n).node.campaign();
  net.stabilize();
  assert.equal(net.get(3n).node.propose(Buffer.from('via-3')).ok, true);
  net.handleReady(3n);
  assert.deepEqual(net.queue.map(formatMessage), ['3->1 MsgProp term=0 entries=[0/0 "via-3"]']);
  net.stabilize();
  for (const id of net.ids()) assert.ok(net.get(id).applied.some((a) => a.data === 'via-3'));
});

void test('restart: term, vote and commit come from the hard state; membership from the snapshot', () => {
  const storage = new MemoryRaftStorage();
  storage.append(logOf([1, 1, 2, 2]));
  storage.setHardState({ term: 3, vote: 2n, commit: 3 });
  assert.equal(storage.createSnapshot(2, { voters: [1n, 2n, 5n], learners: [6n] }, Buffer.from('s')).ok, true);
  assert.equal(storage.compact(2).ok, true);
  const n = createRaftNode(base({ storage, voters: [1n] }));
  const s = n.status();
  assert.deepEqual([s.term, s.vote, s.commit, s.applied, s.lastIndex], [3, 2n, 3, 2, 4]);
  assert.deepEqual(s.confState, { voters: [1n, 2n, 5n], learners: [6n] });
  assert.equal(s.raftState, 'Follower');
  const rd = n.ready();
  assert.deepEqual(rd.committedEntries.map((e) => e.index), [3], 'entries after the snapshot up to commit are applied again');
  assert.equal(rd.hardState, undefined, 'nothing new to persist');
  n.advance(rd);
  // `applied` skips what the application already has.
  const m = createRaftNode(base({ storage, applied: 3 }));
  assert.equal(m.hasReady(), false);
});

void test('restart refuses a hard state whose commit is past the stored log', () => {
  const storage = new MemoryRaftStorage();
  storage.append(logOf([1]));
  storage.setHardState({ term: 1, vote: 0n, commit: 5 });
  assert.throws(() => createRaftNode(base({ storage })), /outside the stored log/);
});

void test('conf change entries round-trip through their encoding', () => {
  for (const type of Object.values(ConfChangeType)) {
    const cc = { type, nodeId: 0xfedcba9876543210n, context: Buffer.from('http://10.0.0.4:2380') };
    assert.deepEqual(decodeConfChange(encodeConfChange(cc)), cc);
  }
  assert.equal(decodeConfChange(Buffer.from('nope')), undefined);
  assert.equal(decodeConfChange(Buffer.from([1, 9, 0, 0, 0, 0, 0, 0, 0, 1])), undefined);
});

void test('a proposed conf change is an ENTRY_CONF_CHANGE entry that takes effect only when applied', () => {
  const net = Network.cluster(3);
  net.get(1n).node.campaign();
  net.stabilize();
  assert.equal(net.get(1n).node.proposeConfChange({ type: ConfChangeType.RemoveNode, nodeId: 3n, context: Buffer.alloc(0) }).ok, true);
  net.handleReady(1n);
  const app = net.queue.find((m) => m.type === MessageType.MsgApp);
  assert.equal(app?.entries[0]?.type, EntryType.ENTRY_CONF_CHANGE);
  assert.deepEqual(net.get(1n).node.status().confState.voters, [1n, 2n, 3n], 'appended, not yet applied');
  net.stabilize();
  assert.deepEqual(net.get(1n).node.status().confState.voters, [1n, 2n]);
  // Quorum is now 2 of {1, 2}: 3 no longer matters.
  net.isolate(3n);
  net.get(1n).node.propose(Buffer.from('after'));
  net.stabilize();
  assert.ok(net.get(2n).applied.some((a) => a.data === 'after'));
});

void test('a leader that removes itself steps down once the change is applied', () => {
  const net = Network.cluster(3);
  net.get(1n).node.campaign();
  net.stabilize();
  net.get(1n).node.proposeConfChange({ type: ConfChangeType.RemoveNode, nodeId: 1n, context: Buffer.alloc(0) });
  net.stabilize();
  const s = net.get(1n).node.status();
  assert.equal(s.raftState, 'Follower');
  assert.deepEqual(s.confState.voters, [2n, 3n]);
  // The removed node never campaigns again; the others elect a leader among themselves.
  net.tick(1n, 30);
  assert.equal(net.get(1n).node.status().raftState, 'Follower');
  net.tick(2n, 10);
  net.stabilize();
  assert.equal(net.get(2n).node.status().raftState, 'Leader');
});

void test('a transfer to the leader itself or to an unknown node is ignored', () => {
  const net = Network.cluster(3);
  net.get(1n).node.campaign();
  net.stabilize();
  net.get(1n).node.transferLeader(1n);
  net.get(1n).node.transferLeader(9n);
  assert.equal(net.get(1n).node.status().leadTransferee, 0n);
  assert.equal(net.get(1n).node.propose(Buffer.from('still accepted')).ok, true);
});

void test('the core is deterministic: the same inputs give the same outputs', () => {
  const runOnce = (): string[] => {
    const trace: string[] = [];
    let seed = 7;
    const rng = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const net = Network.cluster(3, { preVote: true, checkQuorum: true, rng }, trace);
    for (let i = 0; i < 60; i++) {
      for (const id of net.ids()) net.tick(id);
      if (i % 7 === 3) net.isolate(BigInt((i % 3) + 1));
      if (i % 7 === 6) net.heal();
      const lead = net.leaders()[0];
      if (lead !== undefined) net.get(lead.id).node.propose(Buffer.from(`e${i}`));
      net.stabilize();
    }
    return trace;
  };
  const a = runOnce();
  assert.ok(a.length > 100);
  assert.deepEqual(runOnce(), a);
});

void test('a leader may send what followers\u2019 acks produce while its own Ready is outstanding, never before it settles', () => {
  const storage = new MemoryRaftStorage();
  const n = createRaftNode(base({ storage, voters: [1n, 2n, 3n] }));
  const persist = (rd: ReturnType<typeof n.ready>): void => {
    storage.append(rd.entries);
    if (rd.hardState) storage.setHardState(rd.hardState);
  };
  assert.equal(n.campaign().ok, true);
  let rd = n.ready();
  assert.equal(rd.sendBeforePersist, false);
  n.step(message({ type: MessageType.MsgVoteResp, from: 2n, to: 1n, term: 1 }));
  assert.equal(n.status().raftState, 'Leader');
  assert.deepEqual(n.takeEarlyMessages(), [], 'elected while its term and vote are not persisted yet: nothing goes out early');
  persist(rd);
  n.advance(rd);
  const settle = (): void => {
    while (n.hasReady()) {
      rd = n.ready();
      persist(rd);
      n.advance(rd);
    }
  };
  settle();
  n.step(message({ type: MessageType.MsgAppResp, from: 2n, to: 1n, term: 1, index: 1 }));
  n.step(message({ type: MessageType.MsgAppResp, from: 3n, to: 1n, term: 1, index: 1 }));
  while (n.hasReady()) {
    rd = n.ready();
    persist(rd);
    n.advance(rd);
  }
  assert.equal(n.propose(Buffer.from('x')).ok, true);
  rd = n.ready();
  assert.equal(rd.sendBeforePersist, true);
  const index = rd.entries[0]!.index;
  assert.deepEqual(n.takeEarlyMessages(), [], 'nothing produced since the Ready was handed out');
  // Both followers persist the entry before the leader does: it is committed without the leader's copy.
  n.step(message({ type: MessageType.MsgAppResp, from: 2n, to: 1n, term: 1, index }));
  n.step(message({ type: MessageType.MsgAppResp, from: 3n, to: 1n, term: 1, index }));
  const early = n.takeEarlyMessages();
  assert.deepEqual(
    early.filter((m) => m.type === MessageType.MsgApp).map((m) => [m.to, m.commit]),
    [
      [2n, index],
      [3n, index],
    ],
  );
  assert.deepEqual(n.takeEarlyMessages(), [], 'taken once');
  persist(rd);
  n.advance(rd);
  rd = n.ready();
  assert.deepEqual(rd.committedEntries.map((e) => e.index), [index]);
  assert.equal(rd.messages.filter((m) => m.type === MessageType.MsgApp && m.commit === index).length, 0, 'not sent twice');
});
