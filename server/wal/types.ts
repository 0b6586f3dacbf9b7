/**
 * The write-ahead log's contract. Format: FORMAT.md beside this file.
 *
 * Durability rule: `save` resolves only after its records (and every record saved
 * before it) are fsynced. Concurrent `save` calls share fsyncs (group commit).
 */
import type { Entry, HardState, SnapshotMetadata } from '../../proto/gen/kvstore/raft.js';

export type { Entry, HardState, SnapshotMetadata };

export interface WalContents {
  /** Metadata written at creation (member id, cluster id). */
  readonly metadata: Buffer;
  /** Latest hard state (term 0/vote 0/commit 0 when none was saved). */
  readonly hardState: HardState;
  /** Latest snapshot marker, if any; entries before it are not returned. */
  readonly snapshot: SnapshotMetadata | undefined;
  /** Entries after the snapshot marker, in index order; a later entry with an index already seen replaces the tail from that index. */
  readonly entries: Entry[];
}

export interface Wal {
  /** Appends entries and (if given) the hard state; resolves once durable. */
  save(entries: readonly Entry[], hardState?: HardState): Promise<void>;
  /** Records a snapshot marker (entries up to it may be released later). */
  saveSnapshot(snapshot: SnapshotMetadata): Promise<void>;
  /** Deletes whole segment files that only hold entries at or below `index`. */
  releaseTo(index: bigint): Promise<void>;
  close(): Promise<void>;
}
