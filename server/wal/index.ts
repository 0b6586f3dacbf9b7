/** The WAL's public surface: open/create, the contract types and the error type. */
export { DEFAULT_PREALLOCATE_BYTES, DEFAULT_SEGMENT_BYTES, openWal, walExists } from './open-wal.js';
export { SyncMode } from './types.js';
export type { Entry, HardState, LoggedEntry, OpenedWal, PayloadAt, SnapshotMetadata, TailRepair, Wal, WalContents, WalOptions, WalProblem } from './types.js';
export { WalError } from './wal-error.js';
