/**
 * Progress: the leader's view of one follower's log.
 *
 * States:
 * - Probe: the leader does not know where the logs match; it sends one MsgApp at a time
 *   (`probeSent` pauses until a response or heartbeat response arrives) and backs `next` up on
 *   each rejection.
 * - Replicate: logs match up to `match`; the leader streams entries optimistically (`next` runs
 *   ahead of `match`), bounded by the inflights window.
 * - Snapshot: the follower needs entries that were compacted; a snapshot at `pendingSnapshot`
 *   is on its way and nothing else is sent until it is reported applied or failed.
 *
 * Invariants: match < next; in Replicate, every inflight index is in (match, next).
 */
import { Inflights } from './inflights.js';

export const ProgressState = { Probe: 'Probe', Replicate: 'Replicate', Snapshot: 'Snapshot' } as const;
export type ProgressState = (typeof ProgressState)[keyof typeof ProgressState];

export class Progress {
  match = 0;
  next: number;
  state: ProgressState = ProgressState.Probe;
  /** Index of the snapshot in flight (Snapshot state), else 0. */
  pendingSnapshot = 0;
  /** Heard from since the last check-quorum round (the leader's own entry is always true). */
  recentActive = false;
  /** Probe state: a MsgApp is outstanding. */
  probeSent = false;
  isLearner: boolean;
  readonly inflights: Inflights;

  constructor(next: number, maxInflight: number, isLearner: boolean) {
    this.next = next;
    this.inflights = new Inflights(maxInflight);
    this.isLearner = isLearner;
  }

  #reset(state: ProgressState): void {
    this.probeSent = false;
    this.pendingSnapshot = 0;
    this.state = state;
    this.inflights.reset();
  }

  becomeProbe(): void {
    // After a snapshot, the follower has at least the snapshot's entries.
    const fromSnapshot = this.state === ProgressState.Snapshot ? this.pendingSnapshot + 1 : 0;
    this.#reset(ProgressState.Probe);
    this.next = this.match + 1 > fromSnapshot ? this.match + 1 : fromSnapshot;
  }

  becomeReplicate(): void {
    this.#reset(ProgressState.Replicate);
    this.next = this.match + 1;
  }

  becomeSnapshot(snapshotIndex: number): void {
    this.#reset(ProgressState.Snapshot);
    this.pendingSnapshot = snapshotIndex;
  }

  /** An acknowledgement up to `n`. Returns whether `match` advanced. */
  maybeUpdate(n: number): boolean {
    let updated = false;
    if (this.match < n) {
      this.match = n;
      updated = true;
      this.probeSent = false;
    }
    if (this.next < n + 1) this.next = n + 1;
    return updated;
  }

  /** Records a MsgApp carrying entries up to `last` (entries > 0) or an empty probe. */
  sentEntries(last: number | undefined): void {
    if (this.state === ProgressState.Replicate) {
      if (last !== undefined) {
        this.next = last + 1;
        this.inflights.add(last);
      }
    } else if (this.state === ProgressState.Probe) {
      this.probeSent = true;
    }
  }

  /**
   * A rejection of the MsgApp whose previous index was `rejected`; `matchHint` is where the
   * follower's log may end matching. Returns false when the rejection is stale (ignored).
   */
  maybeDecrTo(rejected: number, matchHint: number): boolean {
    if (this.state === ProgressState.Replicate) {
      if (rejected <= this.match) return false;
      this.next = this.match + 1;
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    const hinted = rejected < matchHint + 1 ? rejected : matchHint + 1;
    this.next = hinted > this.match + 1 ? hinted : this.match + 1;
    if (this.next < 1) this.next = 1;
    this.probeSent = false;
    return true;
  }

  /** Whether the leader must hold back MsgApp to this follower. */
  isPaused(): boolean {
    switch (this.state) {
      case ProgressState.Probe:
        return this.probeSent;
      case ProgressState.Replicate:
        return this.inflights.full();
      case ProgressState.Snapshot:
        return true;
    }
  }
}
