/**
 * A point-in-time image of the application state machine, as the Raft core sees it.
 *
 * `metadata.index`/`metadata.term` name the last log entry the image includes; `metadata.confState`
 * is the membership as of that entry. `data` is opaque to the core: the application produces it
 * (through the storage port) and installs it when a Ready carries a snapshot.
 */
import type { ConfState, SnapshotMetadata } from './log-types.js';

export interface Snapshot {
  readonly metadata: SnapshotMetadata;
  readonly data: Buffer;
}

export const EMPTY_CONF_STATE: ConfState = { voters: [], learners: [] };

/** The empty snapshot (index 0): "no snapshot yet". */
export const EMPTY_SNAPSHOT: Snapshot = {
  metadata: { index: 0, term: 0, confState: EMPTY_CONF_STATE },
  data: Buffer.alloc(0),
};

/** The snapshot's conf state, treating an absent one (a decoded protobuf default) as empty. */
export function confStateOf(snapshot: Snapshot): ConfState {
  return snapshot.metadata.confState ?? EMPTY_CONF_STATE;
}
