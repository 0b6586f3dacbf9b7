/**
 * Expected failures of the Raft core and its storage port, as values.
 *
 * `throw` is reserved for broken invariants (a committed entry about to be overwritten, an
 * index past the end of the log, a Ready advanced out of order).
 */

export const RaftErrorKind = {
  /** The entry is below the first index kept by storage (compacted away). */
  Compacted: 'Compacted',
  /** The entry is above the last index the log holds. */
  Unavailable: 'Unavailable',
  /** The storage cannot produce a snapshot right now; the leader retries later. */
  SnapshotTemporarilyUnavailable: 'SnapshotTemporarilyUnavailable',
  /** The snapshot is older than the one storage already has. */
  SnapshotOutOfDate: 'SnapshotOutOfDate',
  /** The proposal was not accepted: no leader, a leadership transfer, removed from the cluster, a conf change pending. */
  ProposalDropped: 'ProposalDropped',
  /** A local-only message kind arrived through `step`. */
  StepLocalMessage: 'StepLocalMessage',
  /** A response from a peer the node does not track. */
  StepPeerNotFound: 'StepPeerNotFound',
} as const;
export type RaftErrorKind = (typeof RaftErrorKind)[keyof typeof RaftErrorKind];

export interface RaftError {
  readonly kind: RaftErrorKind;
  /** Why, for logs and test output; not for matching. */
  readonly reason?: string;
}

export type RaftResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RaftError };

export const ok = <T>(value: T): RaftResult<T> => ({ ok: true, value });
export const fail = <T = never>(kind: RaftErrorKind, reason?: string): RaftResult<T> =>
  reason === undefined ? { ok: false, error: { kind } } : { ok: false, error: { kind, reason } };

/** Success of an operation that has no value. */
export const DONE: RaftResult<void> = { ok: true, value: undefined };
