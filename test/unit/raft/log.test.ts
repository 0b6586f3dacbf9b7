/** The log layers: MemoryRaftStorage, the unstable buffer, and RaftLog on top of both. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MemoryRaftStorage, RaftErrorKind } from '../../../server/raft/index.js';
import { RaftLog } from '../../../server/raft/raft-log.js';
import { Unstable } from '../../../server/raft/unstable.js';
import { entry, logOf } from './harness/build.js';

const kindOf = (r: { ok: boolean; error?: { kind: string } }): string => (r.ok ? 'ok' : r.error!.kind);

const terms = (r: { ok: boolean; value?: readonly { term: number; index: number }[] }): string[] =>
  r.ok ? r.value!.map((e) => `${e.term}/${e.index}`) : ['error'];

void test('memory storage: append replaces an overlapping tail, refuses gaps, ignores compacted entries', () => {
  const s = new MemoryRaftStorage();
  assert.equal(s.firstIndex(), 1);
  assert.equal(s.lastIndex(), 0);
  s.append(logOf([1, 1, 2]));
  s.append([entry(3, 3), entry(3, 4)]);
  assert.deepEqual(terms(s.entries(1, 5, 1e9)), ['1/1', '1/2', '3/3', '3/4']);
  assert.throws(() => s.append([entry(3, 6)]), /gap/);
  assert.equal(s.compact(2).ok, true);
  s.append(logOf([1, 1, 3, 3, 3])); // entries 1..2 are below the snapshot point
  assert.deepEqual(terms(s.entries(3, 6, 1e9)), ['3/3', '3/4', '3/5']);
});

void test('memory storage: term/entries errors and the size limit', () => {
  const s = new MemoryRaftStorage();
  s.append(logOf([1, 1, 1, 2, 2]));
  assert.equal(s.compact(3).ok, true);
  assert.deepEqual(s.term(3), { ok: true, value: 1 }, 'the compaction point keeps its term');
  assert.equal(kindOf(s.term(2)), RaftErrorKind.Compacted);
  assert.equal(kindOf(s.term(6)), RaftErrorKind.Unavailable);
  assert.equal(kindOf(s.entries(3, 5, 1e9)), RaftErrorKind.Compacted);
  assert.equal(kindOf(s.entries(4, 7, 1e9)), RaftErrorKind.Unavailable);
  // Each entry here is 4 bytes of data + 16: a 30-byte limit admits one, never zero.
  assert.deepEqual(terms(s.entries(4, 6, 30)), ['2/4']);
  assert.deepEqual(terms(s.entries(4, 6, 0)), ['2/4']);
  assert.deepEqual(terms(s.entries(4, 6, 40)), ['2/4', '2/5']);
  assert.equal(s.compact(3).ok, false, 'already compacted');
  assert.throws(() => s.compact(9), /past the last index/);
});

void test('memory storage: snapshots are created at an index, applied only when newer', () => {
  const s = new MemoryRaftStorage();
  s.append(logOf([1, 1, 2]));
  const snap = s.createSnapshot(2, { voters: [1n, 2n], learners: [3n] }, Buffer.from('state@2'));
  assert.ok(snap.ok);
  assert.deepEqual(snap.value.metadata, { index: 2, term: 1, confState: { voters: [1n, 2n], learners: [3n] } });
  assert.equal(s.createSnapshot(2, { voters: [], learners: [] }, Buffer.alloc(0)).ok, false);
  assert.deepEqual(s.initialState().confState, { voters: [1n, 2n], learners: [3n] });
  const older = s.applySnapshot({ metadata: { index: 1, term: 1, confState: undefined }, data: Buffer.alloc(0) });
  assert.equal(kindOf(older), RaftErrorKind.SnapshotOutOfDate);
  assert.equal(s.applySnapshot({ metadata: { index: 7, term: 4, confState: { voters: [1n], learners: [] } }, data: Buffer.from('x') }).ok, true);
  assert.equal(s.firstIndex(), 8);
  assert.equal(s.lastIndex(), 7);
  assert.deepEqual(s.term(7), { ok: true, value: 4 });
});

void test('unstable: truncate-and-append, stableTo ignores replaced entries, snapshots', () => {
  const u = new Unstable(5);
  u.truncateAndAppend([entry(1, 5), entry(1, 6), entry(1, 7)]);
  assert.equal(u.maybeLastIndex(), 7);
  u.truncateAndAppend([entry(2, 6)]); // replaces 6 and 7
  assert.deepEqual(u.entries.map((e) => `${e.term}/${e.index}`), ['1/5', '2/6']);
  u.stableTo(6, 1); // the persisted 6 was the old one: nothing becomes stable
  assert.equal(u.offset, 5);
  u.stableTo(5, 1);
  assert.equal(u.offset, 6);
  assert.deepEqual(u.entries.map((e) => e.index), [6]);
  u.truncateAndAppend([entry(3, 4)]); // before the offset: overrides stable entries from 4 on
  assert.equal(u.offset, 4);
  assert.throws(() => u.truncateAndAppend([entry(3, 9)]), /gap/);
  u.restore({ metadata: { index: 10, term: 3, confState: undefined }, data: Buffer.alloc(0) });
  assert.equal(u.maybeFirstIndex(), 11);
  assert.equal(u.maybeLastIndex(), 10);
  assert.equal(u.maybeTerm(10), 3);
  u.stableSnapTo(10);
  assert.equal(u.snapshot, undefined);
});

void test('raft log: maybeAppend checks the predecessor, finds conflicts, and commits at most what matched', () => {
  const s = new MemoryRaftStorage();
  s.append(logOf([1, 1, 2]));
  const log = new RaftLog(s);
  assert.equal(log.maybeAppend(3, 3, 3, [entry(3, 4)]), undefined, 'predecessor term differs');
  assert.equal(log.maybeAppend(3, 2, 9, [entry(3, 4), entry(3, 5)]), 5);
  assert.equal(log.committed, 5, 'commit is clamped to the last new entry');
  assert.equal(log.maybeAppend(1, 1, 5, []), 1, 'an empty append acknowledges its predecessor');
  assert.equal(log.committed, 5, 'never lowered');
  assert.throws(() => log.maybeAppend(1, 1, 5, [entry(9, 2)]), /committed/);
  assert.deepEqual(terms(log.slice(1, 6, 1e9)), ['1/1', '1/2', '2/3', '3/4', '3/5']);
});

void test('raft log: findConflictByTerm skips a whole divergent term', () => {
  const s = new MemoryRaftStorage();
  s.append(logOf([1, 1, 3, 3, 3, 5, 5]));
  const log = new RaftLog(s);
  assert.deepEqual(log.findConflictByTerm(7, 4), { index: 5, term: 3 });
  assert.deepEqual(log.findConflictByTerm(7, 2), { index: 2, term: 1 });
  assert.deepEqual(log.findConflictByTerm(4, 9), { index: 4, term: 3 });
  assert.deepEqual(log.findConflictByTerm(7, 0), { index: 0, term: 0 });
});

void test('raft log: up-to-date comparison (§5.4.1) and commit only in the current term (§5.4.2)', () => {
  const s = new MemoryRaftStorage();
  s.append(logOf([1, 2, 2]));
  const log = new RaftLog(s);
  assert.equal(log.isUpToDate(3, 2), true);
  assert.equal(log.isUpToDate(2, 2), false);
  assert.equal(log.isUpToDate(1, 3), true);
  assert.equal(log.isUpToDate(9, 1), false);
  assert.equal(log.maybeCommit(3, 3), false, 'entry 3 is of term 2, not the current term 3');
  assert.equal(log.maybeCommit(3, 2), true);
  assert.equal(log.committed, 3);
});

void test('raft log: slices span storage and unstable entries, and stop at the size limit', () => {
  const s = new MemoryRaftStorage();
  s.append(logOf([1, 1]));
  const log = new RaftLog(s);
  log.append([entry(1, 3), entry(2, 4)]);
  assert.deepEqual(terms(log.slice(1, 5, 1e9)), ['1/1', '1/2', '1/3', '2/4']);
  assert.deepEqual(terms(log.slice(2, 5, 40)), ['1/2', '1/3']);
  assert.equal(log.lastStableIndex(), 2);
  log.unstable.stableTo(4, 2);
  s.append([entry(1, 3), entry(2, 4)]);
  assert.equal(log.lastStableIndex(), 4);
  assert.throws(() => log.slice(1, 6, 1e9), /past the last index/);
});

void test('raft log: committed entries come out once, never past a pending snapshot', () => {
  const s = new MemoryRaftStorage();
  s.append(logOf([1, 1, 1]));
  const log = new RaftLog(s);
  log.commitTo(2);
  assert.deepEqual(terms({ ok: true, value: log.nextCommittedEntries(1e9) }), ['1/1', '1/2']);
  log.appliedTo(2);
  assert.equal(log.hasNextCommittedEntries(), false);
  log.restore({ metadata: { index: 9, term: 2, confState: undefined }, data: Buffer.alloc(0) });
  assert.equal(log.committed, 9);
  assert.equal(log.hasNextCommittedEntries(), false);
  assert.deepEqual(log.nextCommittedEntries(1e9), []);
  assert.throws(() => log.commitTo(10), /^Error: tocommit\(10\) is out of range \[lastIndex\(\d+\)\]\. Was the raft log corrupted, truncated, or lost\?$/);
});
