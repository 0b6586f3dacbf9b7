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
  f.add(2n);
  f.add(5n);
  f.add(7n);
  assert.equal(f.full(), true);
  assert.throws(() => f.add(8n), /full/);
  f.freeLE(5n);
  assert.equal(f.count, 1);
  assert.throws(() => f.add(6n), /not after/);
  f.freeFirst();
  assert.equal(f.count, 0);
  assert.throws(() => new Inflights(0), /at least 1/);
});

void test('progress: probe sends one message at a time; replicate streams within the window', () => {
  const p = new Progress(5n, 2, false);
  assert.equal(p.state, ProgressState.Probe);
  p.sentEntries(7n);
  assert.equal(p.isPaused(), true, 'one probe outstanding');
  assert.equal(p.maybeUpdate(7n), true);
  assert.equal(p.isPaused(), false);
  p.becomeReplicate();
  assert.equal(p.next, 8n);
  p.sentEntries(9n);
  p.sentEntries(11n);
  assert.equal(p.next, 12n);
  assert.equal(p.isPaused(), true, 'window of 2 full');
  p.inflights.freeLE(9n);
  assert.equal(p.isPaused(), false);
});

void test('progress: rejections back up next; stale rejections are ignored', () => {
  const p = new Progress(10n, 4, false);
  assert.equal(p.maybeDecrTo(5n, 3n), false, 'probe rejection for another index is stale');
  assert.equal(p.maybeDecrTo(9n, 3n), true);
  assert.equal(p.next, 4n, 'resume after the follower hint');
  p.match = 6n;
  p.becomeReplicate();
  p.sentEntries(10n);
  assert.equal(p.maybeDecrTo(5n, 5n), false, 'below match: stale');
  assert.equal(p.maybeDecrTo(8n, 5n), true);
  assert.equal(p.next, 7n, 'replicate falls back to match + 1');
});

void test('progress: after a snapshot, probing resumes past it', () => {
  const p = new Progress(3n, 4, false);
  p.becomeSnapshot(20n);
  assert.equal(p.isPaused(), true);
  p.becomeProbe();
  assert.equal(p.next, 21n);
  assert.equal(p.pendingSnapshot, 0n);
});

void test('tracker: commit index is the quorum-th highest voter match; learners never count', () => {
  const t = new ProgressTracker(8);
  for (const id of [1n, 2n, 3n, 4n]) t.addMember(id, false, 1n);
  t.addMember(5n, true, 1n);
  const set = (m: Record<string, number>) => {
    for (const [id, v] of Object.entries(m)) t.progress.get(BigInt(id))!.match = BigInt(v);
  };
  set({ 1: 9, 2: 7, 3: 2, 4: 1, 5: 8 });
  assert.equal(t.quorum(), 3);
  assert.equal(t.committed(), 2n, 'the learner at 8 does not help');
  t.addMember(5n, false, 1n); // promote: five voters, quorum still 3
  assert.equal(t.committed(), 7n);
  t.addMember(6n, false, 1n); // six voters: quorum 4
  assert.equal(t.quorum(), 4);
  assert.equal(t.committed(), 2n);
  t.removeMember(6n);
  t.removeMember(4n);
  assert.equal(t.quorum(), 3);
  assert.equal(t.committed(), 7n);
  assert.deepEqual(t.confState(), { voters: [1n, 2n, 3n, 5n], learners: [] });
});

void test('tracker: votes win at a quorum, lose once a quorum is out of reach, count once', () => {
  const t = new ProgressTracker(8);
  for (const id of [1n, 2n, 3n, 4n, 5n]) t.addMember(id, false, 1n);
  t.addMember(9n, true, 1n);
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
  for (const id of [1n, 2n, 3n]) t.addMember(id, false, 1n);
  for (const pr of t.progress.values()) pr.recentActive = false;
  assert.equal(t.quorumActive(1n), false);
  t.progress.get(3n)!.recentActive = true;
  assert.equal(t.quorumActive(1n), true);
});

void test('read-index queue: releases every request up to the confirmed one, in order', () => {
  const q = new ReadIndexQueue();
  const req = (ctx: string) => message({ type: MessageType.MsgReadIndex, from: 2n, context: Buffer.from(ctx) });
  q.add(5n, req('a'));
  q.add(6n, req('b'));
  q.add(6n, req('b')); // a repeated context is one request
  q.add(7n, req('c'));
  assert.equal(q.size, 3);
  assert.equal(q.lastPendingContext()?.toString(), 'c');
  assert.deepEqual([...(q.ack(1n, Buffer.from('b')) ?? [])], [1n]);
  assert.equal(q.ack(1n, Buffer.from('zz')), undefined);
  const done = q.release(Buffer.from('b')).map((d) => `${d.request.context.toString()}@${d.index}`);
  assert.deepEqual(done, ['a@5', 'b@6']);
  assert.equal(q.size, 1);
  assert.deepEqual(q.release(Buffer.from('b')), []);
});
