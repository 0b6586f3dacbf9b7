/** A read-only snapshot of a node's Raft state, for observability and tests. */
import type { ConfState } from './log-types.js';
import type { ProgressState } from './progress.js';
import { RaftState } from './raft-state.js';
import type { Raft } from './raft.js';

export interface ProgressStatus {
  readonly match: number;
  readonly next: number;
  readonly state: ProgressState;
  readonly isLearner: boolean;
  readonly recentActive: boolean;
  /** MsgApp messages in flight (Replicate state). */
  readonly inflight: number;
  readonly pendingSnapshot: number;
}

export interface Status {
  readonly id: bigint;
  readonly term: number;
  readonly vote: bigint;
  readonly commit: number;
  readonly applied: number;
  readonly lead: bigint;
  readonly raftState: RaftState;
  readonly leadTransferee: bigint;
  readonly confState: ConfState;
  readonly lastIndex: number;
  /** Per member, ascending id; only filled on the leader. */
  readonly progress: ReadonlyMap<bigint, ProgressStatus>;
}

export function statusOf(r: Raft): Status {
  const progress = new Map<bigint, ProgressStatus>();
  if (r.state === RaftState.Leader) {
    for (const id of r.tracker.ids()) {
      const pr = r.tracker.progress.get(id)!;
      progress.set(id, {
        match: pr.match,
        next: pr.next,
        state: pr.state,
        isLearner: pr.isLearner,
        recentActive: pr.recentActive,
        inflight: pr.inflights.count,
        pendingSnapshot: pr.pendingSnapshot,
      });
    }
  }
  return {
    id: r.id,
    term: r.term,
    vote: r.vote,
    commit: r.log.committed,
    applied: r.log.applied,
    lead: r.lead,
    raftState: r.state,
    leadTransferee: r.leadTransferee,
    confState: r.tracker.confState(),
    lastIndex: r.log.lastIndex(),
    progress,
  };
}
