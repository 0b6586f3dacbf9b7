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
 *
 * Payload window (optional, `PayloadWindow`): an entry appended with where its payload lies on
 * disk (`append(entries, at)`, the WAL's answer to the write) keeps its payload in memory only
 * while it is among the newest `bytes` of such payloads; older ones keep index, term, type and
 * their location, and `entries` reads their payloads back through the port when asked (a
 * follower being caught up, entries applied again after a restart). So the log's memory does not
 * grow with the data written since the last snapshot. The slots handed out are never changed:
 * dropping a payload replaces its slot with a new object.
 */
import type { ConfState, Entry, HardState } from './log-types.js';
import { EntryArena } from './entry-arena.js';
import { DONE, fail, ok, RaftErrorKind, type RaftResult } from './errors.js';
import { confStateOf, EMPTY_SNAPSHOT, type Snapshot } from './snapshot.js';
import { limitSize, type InitialState, type RaftStorage } from './storage.js';

/** Where a payload dropped from memory can be read back; `bytes` is its size. */
export interface PayloadLocation {
  readonly bytes: number;
}

export interface PayloadWindow<L extends PayloadLocation> {
  /** Payload bytes of located entries kept in memory, newest first. */
  readonly bytes: number;
  /** Reads a dropped payload back (synchronously). */
  read(at: L): Buffer;
}

/** An entry slot: `at` is set when its payload also lies on disk; `data` is then empty once dropped. */
interface Slot<L> extends Entry {
  readonly at: L | undefined;
}

const NO_DATA = Buffer.alloc(0);

const dummy = <L>(index: number, term: number): Slot<L> => ({ index, term, type: 0, data: NO_DATA, at: undefined });

const dropped = <L extends PayloadLocation>(s: Slot<L>): boolean => s.at !== undefined && s.at.bytes > 0 && s.data.length === 0;

const slotBytes = <L extends PayloadLocation>(s: Slot<L>): number => (s.at === undefined ? s.data.length : s.at.bytes) + 16;

export class MemoryRaftStorage<L extends PayloadLocation = PayloadLocation> implements RaftStorage {
  #hardState: HardState = { term: 0, vote: 0n, commit: 0 };
  #snapshot: Snapshot = EMPTY_SNAPSHOT;
  #ents: Slot<L>[] = [dummy(0, 0)];
  readonly #arena = new EntryArena();
  readonly #window: PayloadWindow<L> | undefined;
  /** Payload bytes held in memory by slots with a location (the droppable ones). */
  #held = 0;
  /** Log index of the oldest slot that may still hold a droppable payload (where dropping resumes). */
  #dropFrom = 1;
  /** Highest log index whose slot's payload was dropped (0: none); slots after it all hold theirs. */
  #lastDropped = 0;

  constructor(window?: PayloadWindow<L>) {
    this.#window = window;
  }

  /** Payload bytes of located entries held in memory (at most the window's bytes after each append). */
  heldPayloadBytes(): number {
    return this.#held;
  }

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
    const from = lo - offset;
    const to = hi - offset;
    if (this.#window === undefined || lo > this.#lastDropped) return ok(limitSize(this.#ents.slice(from, to), maxBytes));
    return ok(this.#readBack(from, to, maxBytes));
  }

  /** Slots [from, to) within `maxBytes` (at least one), dropped payloads read back from disk. */
  #readBack(from: number, to: number, maxBytes: number): Entry[] {
    const out: Entry[] = [];
    let size = 0;
    for (let i = from; i < to; i++) {
      const s = this.#ents[i]!;
      size += slotBytes(s);
      if (out.length > 0 && size > maxBytes) break;
      out.push(dropped(s) ? { index: s.index, term: s.term, type: s.type, data: this.#window!.read(s.at!) } : s);
    }
    return out;
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
    this.#held = 0;
    this.#dropFrom = snap.metadata.index + 1;
    this.#lastDropped = 0;
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
    for (let k = 1; k <= at; k++) this.#release(this.#ents[k]!);
    this.#ents = [dummy(i, this.#ents[at]!.term), ...this.#ents.slice(at + 1)];
    if (this.#dropFrom <= i) this.#dropFrom = i + 1;
    return DONE;
  }

  /**
   * Appends entries handed out by a Ready. An entry whose index is already present replaces it and
   * everything after it; entries at or below the snapshot index are ignored. Throws on a gap.
   * `at[i]`, when given, is where `entries[i]`'s payload lies on disk (with a window, only the
   * newest payloads stay in memory); an entry given with an empty `data` but a located payload
   * is stored as already dropped.
   */
  append(entries: readonly Entry[], at?: readonly (L | undefined)[]): void {
    if (entries.length === 0) return;
    const first = this.firstIndex();
    const last = entries[entries.length - 1]!.index;
    if (last < first) return;
    const skip = entries[0]!.index < first ? first - entries[0]!.index : 0;
    const at0 = Number(entries[skip]!.index - this.#ents[0]!.index);
    if (at0 > this.#ents.length) throw new Error(`append at ${entries[skip]!.index} leaves a gap after ${this.lastIndex()}`);
    for (let k = at0; k < this.#ents.length; k++) this.#release(this.#ents[k]!);
    this.#ents.length = at0;
    const from = entries[skip]!.index;
    if (this.#dropFrom > from) this.#dropFrom = from;
    if (this.#lastDropped >= from) this.#lastDropped = from - 1;
    const located = this.#window === undefined ? undefined : at;
    for (let i = skip; i < entries.length; i++) {
      const e = entries[i]!;
      const where = located?.[i];
      const data = where !== undefined && e.data.length === 0 ? NO_DATA : this.#arena.copy(e.data);
      if (where !== undefined) this.#held += data.length;
      const slot = { index: e.index, term: e.term, type: e.type, data, at: where };
      if (dropped(slot)) this.#lastDropped = e.index;
      this.#ents.push(slot);
    }
    this.#dropOldest();
  }

  /** Drops the oldest located payloads from memory until the window's bytes are held. */
  #dropOldest(): void {
    const window = this.#window;
    if (window === undefined || this.#held <= window.bytes) return;
    const offset = this.#ents[0]!.index;
    let i = Math.max(1, this.#dropFrom - offset);
    for (; i < this.#ents.length && this.#held > window.bytes; i++) {
      const s = this.#ents[i]!;
      if (s.at === undefined || s.data.length === 0) continue;
      this.#held -= s.data.length;
      this.#ents[i] = { index: s.index, term: s.term, type: s.type, data: NO_DATA, at: s.at };
      if (s.index > this.#lastDropped) this.#lastDropped = s.index;
    }
    this.#dropFrom = offset + i;
  }

  /** Accounts for a slot leaving the log. */
  #release(s: Slot<L>): void {
    if (s.at !== undefined) this.#held -= s.data.length;
  }
}
