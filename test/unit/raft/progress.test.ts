/** Flow control and quorum arithmetic: Inflights, Progress states, ProgressTracker, ReadIndexQueue. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { message, MessageType } from '../../../server/raft/index.js';
import { Inflights } from '../../../server/raft/inflights.js';
import { Progress, ProgressState } from '../../../server/raft/progress.js';
import { ReadIndexQueue } from '../../../server/raft/read-index.js';
import { ProgressTracker, VoteResult } from '../../../server/raft/tracker.js';

void test('inflights: bounded, ordered, freed by acknowledgement', () => {
  const f = new Inflights(3);
  f.add(2);
  f.add(5);
  f.add(7);
  assert.equal(f.full(), true);
  assert.throws(() => f.add(8), /full/);
  f.freeLE(5);
  assert.equal(f.count, 1);
  assert.throws(() => f.add(6), /not after/);
  f.freeFirst();
  assert.equal(f.count, 0);
  assert.throws(() => new Inflights(0), /at least 1/);
});

void test('progress: probe sends one message at a time; replicate streams within the window', () => {
  const p = new Progress(5, 2, false);
  assert.equal(p.state, ProgressState.Probe);
  p.sentEntries(7);
  assert.equal(p.isPaused(), true, 'one probe outstanding');
  assert.equal(p.maybeUpdate(7), true);
  assert.equal(p.isPaused(), false);
  p.becomeReplicate();
  assert.equal(p.next, 8);
  p.sentEntries(9);
  p.sentEntries(11);
  assert.equal(p.next, 12);
  assert.equal(p.isPaused(), true, 'window of 2 full');
  p.inflights.freeLE(9);
  assert.equal(p.isPaused(), false);
});

void test('progress: rejections back up next; stale rejections are ignored', () => {
  const p = new Progress(10, 4, false);
  assert.equal(p.maybeDecrTo(5, 3), false, 'probe rejection for another index is stale');
  assert.equal(p.maybeDecrTo(9, 3), true);
  assert.equal(p.next, 4, 'resume after the follower hint');
  p.match = 6;
  p.becomeReplicate();
  p.sentEntries(10);
  assert.equal(p.maybeDecrTo(5, 5), false, 'below match: stale');
  assert.equal(p.maybeDecrTo(8, 5), true);
  assert.equal(p.next, 7, 'replicate falls back to match + 1');
});

void test('progress: after a snapshot, probing resumes past it', () => {
  const p = new Progress(3, 4, false);
  p.becomeSnapshot(20);
  assert.equal(p.isPaused(), true);
  p.becomeProbe();
  assert.equal(p.next, 21);
  assert.equal(p.pendingSnapshot, 0);
});

void test('tracker: commit index is the quorum-th highest voter match; learners never count', () => {
  const t = new ProgressTracker(8);
  for (const id of [1n, 2n, 3n, 4n]) t.addMember(id, false, 1);
  t.addMember(5n, true, 1);
  const set = (m: Record<string, number>) => {
    for (const [id, v] of Object.entries(m)) t.progress.get(BigInt(id))!.match = v;
  };
  set({ 1: 9, 2: 7, 3: 2, 4: 1, 5: 8 });
  assert.equal(t.quorum(), 3);
  assert.equal(t.committed(), 2, 'the learner at 8 does not help');
  t.addMember(5n, false, 1); // promote: five voters, quorum still 3
  assert.equal(t.committed(), 7);
  t.addMember(6n, false, 1); // six voters: quorum 4
  assert.equal(t.quorum(), 4);
  assert.equal(t.committed(), 2);
  t.removeMember(6n);
  t.removeMember(4n);
  assert.equal(t.quorum(), 3);
  assert.equal(t.committed(), 7);
  assert.deepEqual(t.confState(), { voters: [1n, 2n, 3n, 5n], learners: [] });
});

void test('tracker: votes win at a quorum, lose once a quorum is out of reach, count once', () => {
  const t = new ProgressTracker(8);
  for (const id of [1n, 2n, 3n, 4n, 5n]) t.addMember(id, false, 1);
  t.addMember(9n, true, 1);
  t.recordVote(1n, true);
  t.recordVote(9n, true); // a learner's grant does not count
  t.recordVote(2n, true);
  assert.equal(t.tallyVotes().result, VoteResult.Pending);
  t.recordVote(2n, false); // only the first vote counts
  t.recordVote(3n, false);
  t.recordVote(4n, false);
  assert.equal(t.tallyVotes().result, VoteResult.Pending);
  t.recordVote(5n, false);
  assert.deepEqual(t.tallyVotes(), { granted: 2, rejected: 3, result: VoteResult.Lost });
  t.resetVotes();
  for (const id of [1n, 2n, 3n]) t.recordVote(id, true);
  assert.equal(t.tallyVotes().result, VoteResult.Won);
});

void test('tracker: check-quorum counts the leader and recently active voters', () => {
  const t = new ProgressTracker(8);
  for (const id of [1n, 2n, 3n]) t.addMember(id, false, 1);
  for (const pr of t.progress.values()) pr.recentActive = false;
  assert.equal(t.quorumActive(1n), false);
  t.progress.get(3n)!.recentActive = true;
  assert.equal(t.quorumActive(1n), true);
});

void test('read-index queue: releases every request up to the confirmed one, in order', () => {
  const q = new ReadIndexQueue();
  const req = (ctx: string) => message({ type: MessageType.MsgReadIndex, from: 2n, context: Buffer.from(ctx) });
  q.add(5, req('a'));
  q.add(6, req('b'));
  q.add(6, req('b')); // a repeated context is one request
  q.add(7, req('c'));
  assert.equal(q.size, 3);
  assert.equal(q.lastPendingContext()?.toString(), 'c');
  assert.deepEqual([...(q.ack(1n, Buffer.from('b')) ?? [])], [1n]);
  assert.equal(q.ack(1n, Buffer.from('zz')), undefined);
  const done = q.release(Buffer.from('b')).map((d) => `${d.request.context.toString()}@${d.index}`);
  assert.deepEqual(done, ['a@5', 'b@6']);
  assert.equal(q.size, 1);
  assert.deepEqual(q.release(Buffer.from('b')), []);
});
