/**
 * The log records the Raft core works with, in memory.
 *
 * Terms and indexes are `number`: they grow by one and stay far below 2^53 (a million entries a
 * second for 285 years), and a number costs no allocation where a bigint is a heap object per
 * value (the core does index arithmetic for every entry it touches). Member ids (`vote`, conf
 * state voters/learners) are random 64-bit values and stay `bigint`.
 *
 * On the wire and on disk these are the uint64 fields of proto/kvstore/raft.proto; the codecs
 * (server/wal/proto-codec.ts, server/member/message-codec.ts) write numbers as exact uint64
 * varints and reject, when reading, a term or index above Number.MAX_SAFE_INTEGER.
 */
import { EntryType, type ConfState } from '../../proto/gen/kvstore/raft.js';

export { EntryType, type ConfState };

/** One slot of the replicated log (see proto/kvstore/raft.proto `Entry`). */
export interface Entry {
  term: number;
  index: number;
  type: EntryType;
  data: Buffer;
}

/** Durable consensus state; persisted before any message that depends on it is sent. */
export interface HardState {
  term: number;
  /** Member id voted for in `term`, 0n for none. */
  vote: bigint;
  commit: number;
}

export interface SnapshotMetadata {
  index: number;
  term: number;
  confState: ConfState | undefined;
}
