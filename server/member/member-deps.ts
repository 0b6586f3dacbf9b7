/**
 * What a member is built from (`MemberDeps`: its log, store, applier, clock, peers and settings),
 * what it reports (`MemberHooks`) and the membership it starts with (`StartMembership`).
 */
import type { Applier } from '../apply/applier.js';
import type { MvccStore } from '../mvcc/types.js';
import type { ConfChange, Message } from '../raft/index.js';
import type { Entry } from '../raft/log-types.js';
import type { Wal } from '../wal/types.js';
import type { Scheduler } from './scheduler.js';

export interface MemberHooks {
  readonly onApplied?: (index: number, count: number) => void;
  /** A backend flush (commit of applied state) took `seconds`. */
  readonly onFlushed?: (seconds: number) => void;
  /** A snapshot was taken at `index` and the log before it released. */
  readonly onSnapshot?: (index: number) => void;
  readonly onProposalFailed?: () => void;
  /** Leadership as this member sees it changed (lead 0 = none known). */
  readonly onLeaderChange?: (lead: bigint, isLeader: boolean) => void;
  /** A membership change was applied (after the member list and the core took it). */
  readonly onConfChange?: (cc: ConfChange) => void;
  /** Unrecoverable failure (storage, or a raft invariant such as a lost log): the process must stop. */
  readonly onFatal: (error: Error) => void;
}

export interface MemberDeps {
  readonly memberId: bigint;
  readonly clusterId: bigint;
  readonly wal: Wal;
  readonly store: MvccStore;
  readonly applier: Applier;
  readonly maxRequestBytes: number;
  /** Time and deferral (realScheduler in a process; a virtual one in simulation). */
  readonly scheduler: Scheduler;
  readonly random: () => number;
  readonly tickMs: number;
  readonly electionTicks: number;
  readonly preVote: boolean;
  /** Applied entries between snapshots (--snapshot-count). */
  readonly snapshotCount: number;
  /** Entries kept in the log after a snapshot, for followers that are a little behind. */
  readonly catchUpEntries: number;
  /**
   * Payload bytes of the newest log entries kept in memory (default 64 MiB); older entries'
   * payloads are read back from the WAL when needed, so memory does not grow with the data
   * written since the last snapshot.
   */
  readonly logWindowBytes?: number;
  /** How long a proposal or read may wait before failing with Timeout. */
  readonly requestTimeoutMs: number;
  /** Sends a consensus message to a peer (best effort); may only queue it until `flushSends`. */
  readonly send: (m: Message) => void;
  /** Puts the messages sent so far on the wire now (a Ready's messages are on someone's critical path). */
  readonly flushSends?: () => void;
  readonly hooks: MemberHooks;
}

/** The membership a member starts with. */
export interface StartMembership {
  /** Voters and learners as of the applied index (empty for a member joining an existing cluster). */
  readonly voters: readonly bigint[];
  readonly learners: readonly bigint[];
  /** For the founding members of a new cluster: the conf change entries that create it. */
  readonly bootstrapEntries: readonly Entry[];
}
