/**
 * The storage port: the Raft core's read-only view of the DURABLE log.
 *
 * The core never writes through this port. The application persists what a Ready hands it
 * (hard state, entries, snapshot) in its own storage and then `advance`s; from then on the
 * port must return those records. Entries the core has produced but the application has not
 * yet persisted live in the core's unstable buffer, never here.
 *
 * Index model: the storage holds the entries firstIndex()..lastIndex(); the entry just before
 * firstIndex() (the last one a snapshot covers, or index 0 term 0 on an empty log) still has a
 * known term. An empty log has firstIndex() = 1, lastIndex() = 0.
 */
import type { ConfState, Entry, HardState } from './log-types.js';
import type { RaftResult } from './errors.js';
import type { Snapshot } from './snapshot.js';

export interface InitialState {
  readonly hardState: HardState;
  /** Membership as of the latest snapshot; empty voters when there is none. */
  readonly confState: ConfState;
}

export interface RaftStorage {
  /** Hard state and conf state to start from (called once, at node creation). */
  initialState(): InitialState;
  /**
   * Entries [lo, hi), at most `maxBytes` in total (see `entryBytes`) but always at least one
   * when lo < hi. Errors: Compacted when lo < firstIndex(); Unavailable when hi > lastIndex() + 1.
   */
  entries(lo: number, hi: number, maxBytes: number): RaftResult<Entry[]>;
  /** Term of entry i, for firstIndex()-1 <= i <= lastIndex(). Errors: Compacted, Unavailable. */
  term(i: number): RaftResult<number>;
  firstIndex(): number;
  lastIndex(): number;
  /**
   * The most recent snapshot, data included, to send to a follower that fell behind.
   * Error: SnapshotTemporarilyUnavailable (the core retries on a later heartbeat response).
   */
  snapshot(): RaftResult<Snapshot>;
}

/** Size of an entry for flow control: payload bytes plus a fixed allowance for term/index/type. */
export function entryBytes(e: Entry): number {
  return e.data.length + 16;
}

/**
 * The longest prefix of `ents` whose total size stays within `maxBytes`, never fewer than one
 * entry (a single oversized entry still goes out alone).
 */
export function limitSize(ents: Entry[], maxBytes: number): Entry[] {
  if (ents.length === 0) return ents;
  let size = entryBytes(ents[0]!);
  let n = 1;
  for (; n < ents.length; n++) {
    size += entryBytes(ents[n]!);
    if (size > maxBytes) break;
  }
  return n === ents.length ? ents : ents.slice(0, n);
}
