/**
 * The write-ahead log's contract. Format: FORMAT.md beside this file.
 *
 * Durability rule: `save` resolves only after its records (and every record saved
 * before it) are fsynced. Concurrent `save` calls share fsyncs (group commit).
 */
import type { Entry, HardState, SnapshotMetadata } from '../raft/log-types.js';

export type { Entry, HardState, SnapshotMetadata };

/**
 * Where an entry's payload (its `data` bytes) lies in the log's files: `bytes` bytes at byte
 * `offset` of segment file `segment`. Valid until the segment is released.
 */
export interface PayloadAt {
  readonly segment: string;
  readonly offset: number;
  readonly bytes: number;
}

/**
 * An entry read back from the log; with `payloads: 'files'` a payload larger than 64 bytes
 * (`SMALL_PAYLOAD_BYTES`) is not read: `data` is empty and `at` tells where the payload is.
 */
export interface LoggedEntry extends Entry {
  readonly at?: PayloadAt;
}

export interface WalContents {
  /** Metadata written at creation (member id, cluster id). */
  readonly metadata: Buffer;
  /** Latest hard state (term 0/vote 0/commit 0 when none was saved). */
  readonly hardState: HardState;
  /** Latest snapshot marker, if any; entries before it are not returned. */
  readonly snapshot: SnapshotMetadata | undefined;
  /** Entries after the snapshot marker, in index order; a later entry with an index already seen replaces the tail from that index. */
  readonly entries: LoggedEntry[];
  /**
   * Set when opening found the last write of the last segment incomplete (a crash mid-write) and
   * discarded it; callers may log it. Nothing that was acknowledged by `save` is ever discarded.
   */
  readonly tailRepair?: TailRepair;
}

/** What torn-tail repair discarded: the unfinished write starting at `offset` of `segment`. */
export interface TailRepair {
  /** Segment file name (not a path). */
  readonly segment: string;
  /** Byte offset where the discarded write began; the log now ends there. */
  readonly offset: number;
  /** Non-zero bytes found from `offset` on, now zeroed. */
  readonly droppedBytes: number;
}

export interface Wal {
  /**
   * Appends entries and (if given) the hard state; resolves once durable. The entries must be
   * consecutive and may not leave a gap after the last index (rejects with WalError
   * 'InvalidAppend'); a lower first index replaces the tail. Entry objects are encoded when the
   * batch is written: do not mutate them until the promise settles. Resolves with where each
   * entry's payload now lies on disk, in the order given (see `readPayload`).
   */
  save(entries: readonly Entry[], hardState?: HardState): Promise<PayloadAt[]>;
  /** Records a snapshot marker (entries up to it may be released later). */
  saveSnapshot(snapshot: SnapshotMetadata): Promise<void>;
  /**
   * Deletes whole segment files that only hold entries at or below `index`, oldest first, never the
   * open segment. `index` is capped at the latest durable snapshot marker, so nothing the marker
   * does not cover is ever deleted (without a marker nothing is).
   */
  releaseTo(index: number): Promise<void>;
  /**
   * Reads a payload back from a segment this log still holds (synchronous: a few hundred
   * microseconds for a megabyte from the page cache). Throws when the segment was released or
   * the bytes are short.
   */
  readPayload(at: PayloadAt): Buffer;
  close(): Promise<void>;
}

/** How a write is made durable: O_DSYNC on the file, or write followed by fdatasync. */
export const SyncMode = { Dsync: 'dsync', Datasync: 'datasync' } as const;
export type SyncMode = (typeof SyncMode)[keyof typeof SyncMode];

export interface WalOptions {
  /** Written into every segment when the WAL is created; ignored when it already exists. */
  readonly metadata: Buffer;
  /** A segment is closed and a new one started once its data reaches this size (default 64 MB). */
  readonly segmentBytes?: number;
  /** Zeroed space kept allocated ahead of the write position so fsyncs need no size change (default 1 MiB; 0 disables). */
  readonly preallocateBytes?: number;
  /** Default `dsync` (measured faster here); `datasync` is kept for comparison. */
  readonly syncMode?: SyncMode;
  /** Called once per durable write of the log (batch write or new segment), with its duration. */
  readonly onFsync?: (seconds: number) => void;
  /** Called with the record bytes of each batch written. */
  readonly onWriteBytes?: (n: number) => void;
  /**
   * What an opened log's entries carry (`WalContents.entries`): `memory` (default) their
   * payloads; `files` only where each payload lies (`LoggedEntry.at`), but for payloads of at
   * most 64 bytes, so that reading a log of any size costs memory for its entries' index and
   * term, not their data.
   */
  readonly payloads?: 'memory' | 'files';
}

export interface OpenedWal {
  readonly wal: Wal;
  readonly contents: WalContents;
  /** True when this call created the WAL (contents are then empty). */
  readonly created: boolean;
}

/**
 * Why the WAL could not be opened or written. Carried by `WalError` (wal-error.ts).
 * - Corrupt: damaged bytes that cannot be a crash's unfinished last write, a missing segment,
 *   a broken CRC chain or an impossible record sequence. Never repaired automatically.
 * - InvalidAppend: the caller broke an invariant (entries out of order or leaving a gap).
 * - Closed: the WAL was closed.
 * - WriteFailed: a write or fsync failed; the WAL refuses further writes (reopen to recover).
 */
export type WalProblem =
  | { readonly kind: 'Corrupt'; readonly segment: string; readonly offset: number; readonly reason: string }
  | { readonly kind: 'InvalidAppend'; readonly reason: string }
  | { readonly kind: 'Closed' }
  | { readonly kind: 'WriteFailed'; readonly reason: string };
