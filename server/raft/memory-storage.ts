/**
 * MemoryRaftStorage: a `RaftStorage` held in memory, written by the application.
 *
 * Layout: `#ents[0]` is a dummy entry carrying the index and term of the latest snapshot (or
 * 0/0); real entries follow with consecutive indexes. The application calls `append`,
 * `setHardState` and `applySnapshot` with what each Ready hands it, BEFORE `advance`.
 * `createSnapshot` + `compact` implement log compaction once the application has captured its
 * state up to an applied index.
 *
 * Memory: appended entries are kept as new objects whose payload is a copy in shared chunks
 * (entry-arena.ts): never a view that would keep the caller's bigger buffer alive.
 */
import type { ConfState, Entry, HardState } from './log-types.js';
import { EntryArena } from './entry-arena.js';
import { DONE, fail, ok, RaftErrorKind, type RaftResult } from './errors.js';
import { confStateOf, EMPTY_SNAPSHOT, type Snapshot } from './snapshot.js';
import { limitSize, type InitialState, type RaftStorage } from './storage.js';

const dummy = (index: number, term: number): Entry => ({ index, term, type: 0, data: Buffer.alloc(0) });

export class MemoryRaftStorage implements RaftStorage {
  #hardState: HardState = { term: 0, vote: 0n, commit: 0 };
  #snapshot: Snapshot = EMPTY_SNAPSHOT;
  #ents: Entry[] = [dummy(0, 0)];
  readonly #arena = new EntryArena();

  initialState(): InitialState {
    return { hardState: { ...this.#hardState }, confState: confStateOf(this.#snapshot) };
  }

  setHardState(hs: HardState): void {
    this.#hardState = { ...hs };
  }

  hardState(): HardState {
    return { ...this.#hardState };
  }

  entries(lo: number, hi: number, maxBytes: number): RaftResult<Entry[]> {
    const offset = this.#ents[0]!.index;
    if (lo <= offset) return fail(RaftErrorKind.Compacted, `entries from ${lo}, first index ${offset + 1}`);
    if (hi > this.lastIndex() + 1) return fail(RaftErrorKind.Unavailable, `entries to ${hi}, last index ${this.lastIndex()}`);
    return ok(limitSize(this.#ents.slice(Number(lo - offset), Number(hi - offset)), maxBytes));
  }

  term(i: number): RaftResult<number> {
    const offset = this.#ents[0]!.index;
    if (i < offset) return fail(RaftErrorKind.Compacted);
    const e = this.#ents[Number(i - offset)];
    return e === undefined ? fail(RaftErrorKind.Unavailable) : ok(e.term);
  }

  firstIndex(): number {
    return this.#ents[0]!.index + 1;
  }

  lastIndex(): number {
    return this.#ents[0]!.index + (this.#ents.length - 1);
  }

  snapshot(): RaftResult<Snapshot> {
    return ok(this.#snapshot);
  }

  /** Replaces the whole log with a received snapshot. Error: SnapshotOutOfDate when not newer. */
  applySnapshot(snap: Snapshot): RaftResult<void> {
    if (snap.metadata.index <= this.#snapshot.metadata.index) return fail(RaftErrorKind.SnapshotOutOfDate);
    this.#snapshot = snap;
    this.#ents = [dummy(snap.metadata.index, snap.metadata.term)];
    return DONE;
  }

  /**
   * Records a snapshot of the application state at applied index `i` (with membership `cs` as of
   * `i`). Does not drop entries: call `compact` for that. Error: SnapshotOutOfDate when `i` is not
   * past the current snapshot. Throws when `i` is past the last index.
   */
  createSnapshot(i: number, cs: ConfState, data: Buffer): RaftResult<Snapshot> {
    if (i <= this.#snapshot.metadata.index) return fail(RaftErrorKind.SnapshotOutOfDate);
    if (i > this.lastIndex()) throw new Error(`snapshot index ${i} is past the last index ${this.lastIndex()}`);
    const term = this.#ents[Number(i - this.#ents[0]!.index)]!.term;
    this.#snapshot = { metadata: { index: i, term, confState: { voters: [...cs.voters], learners: [...cs.learners] } }, data };
    return ok(this.#snapshot);
  }

  /**
   * Drops the entries before `i`; entry `i` becomes the dummy (its term stays known).
   * Error: Compacted when already compacted to `i` or beyond. Throws when `i` is past the last index.
   */
  compact(i: number): RaftResult<void> {
    const offset = this.#ents[0]!.index;
    if (i <= offset) return fail(RaftErrorKind.Compacted);
    if (i > this.lastIndex()) throw new Error(`compact ${i} is past the last index ${this.lastIndex()}`);
    const at = Number(i - offset);
    this.#ents = [dummy(i, this.#ents[at]!.term), ...this.#ents.slice(at + 1)];
    return DONE;
  }

  /**
   * Appends entries handed out by a Ready. An entry whose index is already present replaces it and
   * everything after it; entries at or below the snapshot index are ignored. Throws on a gap.
   */
  append(entries: readonly Entry[]): void {
    if (entries.length === 0) return;
    const first = this.firstIndex();
    const last = entries[entries.length - 1]!.index;
    if (last < first) return;
    const fresh = entries[0]!.index < first ? entries.slice(Number(first - entries[0]!.index)) : entries;
    const at = Number(fresh[0]!.index - this.#ents[0]!.index);
    if (at > this.#ents.length) throw new Error(`append at ${fresh[0]!.index} leaves a gap after ${this.lastIndex()}`);
    this.#ents.length = at;
    for (const e of fresh) this.#ents.push({ index: e.index, term: e.term, type: e.type, data: this.#arena.copy(e.data) });
  }
}
