/**
 * The replicated log as the core sees it: durable entries (storage port) followed by unstable
 * ones, plus the commit and apply cursors.
 *
 * Invariants: applied <= committed <= lastIndex(); firstIndex() - 1 <= committed. A committed
 * entry is never replaced (doing so throws: it would break state machine safety).
 */
import type { Entry } from './log-types.js';
import { fail, ok, RaftErrorKind, type RaftResult } from './errors.js';
import type { Snapshot } from './snapshot.js';
import { limitSize, type RaftStorage } from './storage.js';
import { Unstable } from './unstable.js';

export class RaftLog {
  readonly storage: RaftStorage;
  readonly unstable: Unstable;
  /** Highest index known to be stored on a quorum. */
  committed: number;
  /** Highest index the application has applied (acknowledged through advance). */
  applied: number;

  constructor(storage: RaftStorage) {
    this.storage = storage;
    const first = storage.firstIndex();
    this.unstable = new Unstable(storage.lastIndex() + 1);
    this.committed = first - 1;
    this.applied = first - 1;
  }

  firstIndex(): number {
    return this.unstable.maybeFirstIndex() ?? this.storage.firstIndex();
  }

  lastIndex(): number {
    return this.unstable.maybeLastIndex() ?? this.storage.lastIndex();
  }

  /** Highest index known to be persisted (conservative). */
  lastStableIndex(): number {
    const s = this.storage.lastIndex();
    return this.unstable.offset - 1 < s ? this.unstable.offset - 1 : s;
  }

  /** Term of entry i. Errors: Compacted (below firstIndex()-1), Unavailable (past lastIndex()). */
  term(i: number): RaftResult<number> {
    const dummy = this.firstIndex() - 1;
    if (i < dummy) return fail(RaftErrorKind.Compacted);
    if (i > this.lastIndex()) return fail(RaftErrorKind.Unavailable);
    const t = this.unstable.maybeTerm(i);
    return t !== undefined ? ok(t) : this.storage.term(i);
  }

  /** Term of entry i, or 0 when unknown. Allocates no result object (it runs per entry). */
  termOrZero(i: number): number {
    if (i < this.firstIndex() - 1 || i > this.lastIndex()) return 0;
    const t = this.unstable.maybeTerm(i);
    if (t !== undefined) return t;
    const r = this.storage.term(i);
    return r.ok ? r.value : 0;
  }

  lastTerm(): number {
    const r = this.term(this.lastIndex());
    if (!r.ok) throw new Error(`term of the last index ${this.lastIndex()} unknown: ${r.error.kind}`);
    return r.value;
  }

  matchTerm(i: number, t: number): boolean {
    // Term 0 only for the index-0 dummy of an empty log, which termOrZero also reports as 0.
    return this.termOrZero(i) === t && (t !== 0 || this.term(i).ok);
  }

  /** §5.4.1: a log ending at (lastIndex, term) is at least as up to date as this one. */
  isUpToDate(lastIndex: number, term: number): boolean {
    const myTerm = this.lastTerm();
    return term > myTerm || (term === myTerm && lastIndex >= this.lastIndex());
  }

  /** Index of the first entry of `ents` that is not in the log with the same term; 0 if none. */
  findConflict(ents: readonly Entry[]): number {
    for (const e of ents) if (!this.matchTerm(e.index, e.term)) return e.index;
    return 0;
  }

  /**
   * The largest index <= `index` whose term is <= `term`, with that term (0 when unknown).
   * Used to skip a whole divergent term in one round trip when an append is rejected.
   */
  findConflictByTerm(index: number, term: number): { index: number; term: number } {
    for (let i = index; ; i--) {
      const r = this.term(i);
      if (!r.ok) return { index: i, term: 0 };
      if (r.value <= term) return { index: i, term: r.value };
    }
  }

  /**
   * Appends `ents` after the entry (index, logTerm) if the log has that entry; then commits up to
   * min(committed, last new index). Returns the last new index, or undefined when the log does
   * not match at `index` (the leader must back up).
   */
  maybeAppend(index: number, logTerm: number, committed: number, ents: readonly Entry[]): number | undefined {
    if (!this.matchTerm(index, logTerm)) return undefined;
    const lastNew = index + (ents.length);
    const ci = this.findConflict(ents);
    if (ci !== 0) {
      if (ci <= this.committed) throw new Error(`entry ${ci} conflicts with the committed log (committed ${this.committed})`);
      this.append(ents.slice(Number(ci - (index + 1))));
    }
    this.commitTo(committed < lastNew ? committed : lastNew);
    return lastNew;
  }

  /** Appends (possibly truncating an uncommitted tail); returns the new last index. */
  append(ents: readonly Entry[]): number {
    if (ents.length === 0) return this.lastIndex();
    const after = ents[0]!.index - 1;
    if (after < this.committed) throw new Error(`append after ${after} is below the commit index ${this.committed}`);
    this.unstable.truncateAndAppend(ents);
    return this.lastIndex();
  }

  /**
   * Entries [lo, hi) with at most maxBytes (at least one entry when lo < hi).
   * Errors: Compacted when lo < firstIndex(); throws when hi > lastIndex()+1.
   */
  slice(lo: number, hi: number, maxBytes: number): RaftResult<Entry[]> {
    if (lo > hi) throw new Error(`invalid slice [${lo}, ${hi})`);
    if (lo < this.firstIndex()) return fail(RaftErrorKind.Compacted);
    if (hi > this.lastIndex() + 1) throw new Error(`slice [${lo}, ${hi}) past the last index ${this.lastIndex()}`);
    if (lo === hi) return ok([]);
    const offset = this.unstable.offset;
    let out: Entry[] = [];
    if (lo < offset) {
      const stored = this.storage.entries(lo, hi < offset ? hi : offset, maxBytes);
      if (!stored.ok) return stored;
      out = stored.value;
      // Storage stopped short (size limit): the unstable part must not be appended after a hole.
      if ((out.length) < (hi < offset ? hi : offset) - lo) return ok(out);
    }
    if (hi > offset) {
      const tail = this.unstable.slice(lo > offset ? lo : offset, hi);
      out = out.length === 0 ? tail : [...out, ...tail];
    }
    return ok(limitSize(out, maxBytes));
  }

  /** Entries from i to the end, at most maxBytes. */
  entries(i: number, maxBytes: number): RaftResult<Entry[]> {
    if (i > this.lastIndex()) return ok([]);
    return this.slice(i, this.lastIndex() + 1, maxBytes);
  }

  /**
   * Raises the commit index; never lowers it. Past the last index it throws etcd's message: the
   * leader says this node stored entries it no longer has (wiped or truncated log).
   */
  commitTo(i: number): void {
    if (i <= this.committed) return;
    if (i > this.lastIndex()) throw new Error(`tocommit(${i}) is out of range [lastIndex(${this.lastIndex()})]. Was the raft log corrupted, truncated, or lost?`);
    this.committed = i;
  }

  /** §5.4.2: commits `maxIndex` only if that entry is of the current `term`. Returns whether commit advanced. */
  maybeCommit(maxIndex: number, term: number): boolean {
    if (maxIndex > this.committed && this.termOrZero(maxIndex) === term) {
      this.commitTo(maxIndex);
      return true;
    }
    return false;
  }

  appliedTo(i: number): void {
    if (i === 0) return;
    if (i > this.committed || i < this.applied) throw new Error(`applied ${i} outside [${this.applied}, ${this.committed}]`);
    this.applied = i;
  }

  hasPendingSnapshot(): boolean {
    return this.unstable.snapshot !== undefined;
  }

  /** Committed entries not yet applied (none while a snapshot is waiting to be installed). */
  nextCommittedEntries(maxBytes: number): Entry[] {
    if (this.hasPendingSnapshot()) return [];
    const lo = this.applied + 1 > this.firstIndex() ? this.applied + 1 : this.firstIndex();
    if (this.committed + 1 <= lo) return [];
    const r = this.slice(lo, this.committed + 1, maxBytes);
    if (!r.ok) throw new Error(`committed entries from ${lo} unavailable: ${r.error.kind}`);
    return r.value;
  }

  hasNextCommittedEntries(): boolean {
    if (this.hasPendingSnapshot()) return false;
    const lo = this.applied + 1 > this.firstIndex() ? this.applied + 1 : this.firstIndex();
    return this.committed + 1 > lo;
  }

  /** The snapshot to send to a follower: the unstable one if any, else storage's. */
  snapshot(): RaftResult<Snapshot> {
    return this.unstable.snapshot !== undefined ? ok(this.unstable.snapshot) : this.storage.snapshot();
  }

  /** Replaces the log with a snapshot; its index becomes committed. */
  restore(s: Snapshot): void {
    this.committed = s.metadata.index;
    this.unstable.restore(s);
  }
}
