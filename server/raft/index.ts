/** The Raft core's public surface. See README.md for the Ready/Advance contract. */
export { createRaftNode, type RaftNode } from './node.js';
export { SILENT_LOGGER, validateConfig, type RaftConfig, type RaftLogger } from './config.js';
export { ConfChangeType, decodeConfChange, encodeConfChange, type ConfChange } from './conf-change.js';
export { RaftErrorKind, type RaftError, type RaftResult } from './errors.js';
export { CAMPAIGN_TRANSFER, isLocalMessage, isResponseMessage, message, MessageType, type Message } from './message.js';
export { MemoryRaftStorage } from './memory-storage.js';
export { ProgressState } from './progress.js';
export { NONE, RaftState } from './raft-state.js';
export type { ReadState } from './read-index.js';
export type { Ready, SoftState } from './ready.js';
export { EMPTY_SNAPSHOT, type Snapshot } from './snapshot.js';
export { EntryType, type ConfState, type Entry, type HardState, type SnapshotMetadata } from './log-types.js';
export type { ProgressStatus, Status } from './status.js';
export { entryBytes, type InitialState, type RaftStorage } from './storage.js';
