/**
 * The Ready/Advance cycle: what the application must do next, handed out as one batch.
 *
 * Contract (see README.md): take `ready()`, then, in this order: install `snapshot` (if any) and
 * persist `hardState` + `entries` (fsync when `mustSync`); send `messages` (a leader may send
 * them while persisting when `sendBeforePersist`); apply `committedEntries` in order; serve
 * `readStates` once applied up to their index; call `advance(ready)`. No new Ready is handed
 * out until the previous one is advanced.
 */
import type { Entry, HardState } from './log-types.js';
import { commitAndBroadcast } from './leader-commit.js';
import type { Message } from './message.js';
import { RaftState } from './raft-state.js';
import type { Raft } from './raft.js';
import type { ReadState } from './read-index.js';
import type { Snapshot } from './snapshot.js';

/** Volatile state worth reporting (not persisted). */
export interface SoftState {
  readonly lead: bigint;
  readonly raftState: RaftState;
}

export interface Ready {
  /** Set when leader or role changed since the last Ready. */
  readonly softState: SoftState | undefined;
  /** Set when term, vote or commit changed: persist it before sending messages. */
  readonly hardState: HardState | undefined;
  /** Reads confirmed by the leader: serve each once applied up to its index. */
  readonly readStates: readonly ReadState[];
  /** Entries to persist, consecutive; an index already stored replaces the stored tail from there. */
  readonly entries: readonly Entry[];
  /** A snapshot received from the leader, to persist and install before anything else. */
  readonly snapshot: Snapshot | undefined;
  /** Committed entries to apply, in order (after persisting this Ready's entries). */
  readonly committedEntries: readonly Entry[];
  /** Messages to send to peers (after persisting, unless sendBeforePersist). */
  readonly messages: readonly Message[];
  /** This node's own proposals that no leader took (held too long, see held-proposals.ts): fail their proposers. */
  readonly droppedProposals: readonly Entry[];
  /** Whether the hard state and entries must be fsynced before sending/acknowledging. */
  readonly mustSync: boolean;
  /**
   * True when this node is leader and its term/vote did not change in this Ready: its messages
   * do not depend on this Ready being persisted and may be sent in parallel with persisting.
   */
  readonly sendBeforePersist: boolean;
}

const sameHard = (a: HardState, b: HardState): boolean => a.term === b.term && a.vote === b.vote && a.commit === b.commit;

/** Tracks what the application has already been handed and acknowledged. */
export class ReadyCycle {
  #prevSoft: SoftState;
  #prevHard: HardState;
  #outstanding: Ready | undefined = undefined;
  readonly #maxCommittedBytes: number;

  constructor(r: Raft, maxCommittedBytes: number) {
    this.#prevSoft = { lead: r.lead, raftState: r.state };
    this.#prevHard = { term: r.term, vote: r.vote, commit: r.log.committed };
    this.#maxCommittedBytes = maxCommittedBytes;
  }

  hasReady(r: Raft): boolean {
    if (this.#outstanding !== undefined) return false;
    return (
      r.lead !== this.#prevSoft.lead ||
      r.state !== this.#prevSoft.raftState ||
      !sameHard(hardStateOf(r), this.#prevHard) ||
      r.log.unstable.snapshot !== undefined ||
      r.log.unstable.entries.length > 0 ||
      r.msgs.length > 0 ||
      r.readStates.length > 0 ||
      r.droppedProposals.length > 0 ||
      r.log.hasNextCommittedEntries()
    );
  }

  /** Hands out the next batch. Throws while the previous one is not advanced. */
  ready(r: Raft): Ready {
    if (this.#outstanding !== undefined) throw new Error('ready() called before advance() of the previous Ready');
    const soft: SoftState = { lead: r.lead, raftState: r.state };
    const hard = hardStateOf(r);
    const softChanged = soft.lead !== this.#prevSoft.lead || soft.raftState !== this.#prevSoft.raftState;
    const termOrVoteChanged = hard.term !== this.#prevHard.term || hard.vote !== this.#prevHard.vote;
    const entries = [...r.log.unstable.entries];
    const snapshot = r.log.unstable.snapshot;
    const rd: Ready = {
      softState: softChanged ? soft : undefined,
      hardState: sameHard(hard, this.#prevHard) ? undefined : hard,
      readStates: r.readStates,
      entries,
      snapshot,
      committedEntries: r.log.nextCommittedEntries(this.#maxCommittedBytes),
      messages: r.msgs,
      droppedProposals: r.droppedProposals,
      mustSync: termOrVoteChanged || entries.length > 0 || snapshot !== undefined,
      sendBeforePersist: r.state === RaftState.Leader && !termOrVoteChanged,
    };
    r.msgs = [];
    r.readStates = [];
    r.droppedProposals = [];
    this.#prevSoft = soft;
    this.#outstanding = rd;
    return rd;
  }

  /**
   * Messages that steps produced while a leader's Ready is outstanding, when they may go out
   * before it is advanced: that Ready has `sendBeforePersist` and the node still leads in the
   * same term with the same vote, so nothing they say waits on this node's persistence (a new
   * commit index comes from the followers' acks alone: the leader counts its own copy only at
   * `advance`). Taken messages are not in the next Ready. Empty otherwise.
   */
  takeEarlyMessages(r: Raft): Message[] {
    const rd = this.#outstanding;
    if (rd === undefined || !rd.sendBeforePersist || r.msgs.length === 0) return [];
    if (r.state !== RaftState.Leader || r.term !== this.#prevHard.term || r.vote !== this.#prevHard.vote) return [];
    const out = r.msgs;
    r.msgs = [];
    return out;
  }

  /**
   * The application persisted, sent and applied `rd`. Marks its entries/snapshot stable and its
   * committed entries applied; a leader then counts its own persisted entries towards commit.
   */
  advance(r: Raft, rd: Ready): void {
    if (rd !== this.#outstanding) throw new Error('advance() with a Ready that is not the outstanding one');
    this.#outstanding = undefined;
    if (rd.hardState !== undefined) this.#prevHard = rd.hardState;
    if (rd.snapshot !== undefined) {
      r.log.unstable.stableSnapTo(rd.snapshot.metadata.index);
      if (rd.snapshot.metadata.index > r.log.applied) r.log.appliedTo(rd.snapshot.metadata.index);
    }
    const last = rd.entries[rd.entries.length - 1];
    if (last !== undefined) r.log.unstable.stableTo(last.index, last.term);
    const applied = rd.committedEntries[rd.committedEntries.length - 1];
    if (applied !== undefined) r.log.appliedTo(applied.index);
    if (r.state === RaftState.Leader) {
      const self = r.tracker.progress.get(r.id);
      if (self !== undefined && self.maybeUpdate(r.log.lastStableIndex())) commitAndBroadcast(r);
    }
  }
}

function hardStateOf(r: Raft): HardState {
  return { term: r.term, vote: r.vote, commit: r.log.committed };
}
