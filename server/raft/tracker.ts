/**
 * The membership (voters and learners), each member's Progress, the votes of the current
 * election and the majority arithmetic. Single-step membership changes only: one voter set,
 * no joint configurations.
 *
 * Invariants: voters and learners are disjoint; `progress` has exactly their union as keys.
 * Learners never vote and never count towards a quorum.
 */
import type { ConfState } from './log-types.js';
import { Progress } from './progress.js';

export const VoteResult = { Pending: 'Pending', Won: 'Won', Lost: 'Lost' } as const;
export type VoteResult = (typeof VoteResult)[keyof typeof VoteResult];

const byId = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);

export class ProgressTracker {
  readonly voters = new Set<bigint>();
  readonly learners = new Set<bigint>();
  readonly progress = new Map<bigint, Progress>();
  readonly votes = new Map<bigint, boolean>();
  readonly maxInflight: number;

  constructor(maxInflight: number) {
    this.maxInflight = maxInflight;
  }

  /** Member ids (voters and learners) in ascending order: every broadcast visits them in this order. */
  ids(): bigint[] {
    return [...this.progress.keys()].sort(byId);
  }

  confState(): ConfState {
    return { voters: [...this.voters].sort(byId), learners: [...this.learners].sort(byId) };
  }

  isVoter(id: bigint): boolean {
    return this.voters.has(id);
  }

  /** Votes needed to win; entries needed on distinct voters to commit. */
  quorum(): number {
    return Math.floor(this.voters.size / 2) + 1;
  }

  /** Adds a member (or turns a learner into a voter, or the reverse) with a fresh Progress at `next`. */
  addMember(id: bigint, learner: boolean, next: number): Progress {
    const existing = this.progress.get(id);
    (learner ? this.voters : this.learners).delete(id);
    (learner ? this.learners : this.voters).add(id);
    if (existing !== undefined) {
      existing.isLearner = learner;
      return existing;
    }
    const pr = new Progress(next, this.maxInflight, learner);
    pr.recentActive = true;
    this.progress.set(id, pr);
    return pr;
  }

  removeMember(id: bigint): void {
    this.voters.delete(id);
    this.learners.delete(id);
    this.progress.delete(id);
  }

  /** The highest index stored on a quorum of voters (0 when there are no voters). */
  committed(): number {
    if (this.voters.size === 0) return 0;
    // Runs for every acknowledgement a leader gets: insertion sort (descending) into a reused
    // array, no allocation (a cluster has a handful of voters).
    const matches = this.#matches;
    let n = 0;
    for (const id of this.voters) {
      const m = this.progress.get(id)?.match ?? 0;
      let i = n++;
      while (i > 0 && matches[i - 1]! < m) {
        matches[i] = matches[i - 1]!;
        i--;
      }
      matches[i] = m;
    }
    return matches[this.quorum() - 1]!;
  }
  readonly #matches: number[] = [];

  /** Records the first vote of `id` in this election (later ones are ignored). */
  recordVote(id: bigint, granted: boolean): void {
    if (!this.votes.has(id)) this.votes.set(id, granted);
  }

  /** Counts voters' votes: Won at a quorum of grants, Lost once a quorum can no longer be reached. */
  tallyVotes(): { granted: number; rejected: number; result: VoteResult } {
    let granted = 0;
    let rejected = 0;
    for (const id of this.voters) {
      const v = this.votes.get(id);
      if (v === true) granted++;
      else if (v === false) rejected++;
    }
    const q = this.quorum();
    const result =
      granted >= q ? VoteResult.Won : this.voters.size - rejected < q ? VoteResult.Lost : VoteResult.Pending;
    return { granted, rejected, result };
  }

  resetVotes(): void {
    this.votes.clear();
  }

  /** Whether a quorum of voters was recently active (check-quorum). */
  quorumActive(selfId: bigint): boolean {
    let active = 0;
    for (const id of this.voters) {
      if (id === selfId || this.progress.get(id)?.recentActive === true) active++;
    }
    return active >= this.quorum();
  }

  /** Whether `acks` holds a quorum of voters. */
  hasQuorum(acks: ReadonlySet<bigint>): boolean {
    let n = 0;
    for (const id of this.voters) if (acks.has(id)) n++;
    return n >= this.quorum();
  }
}
