/**
 * The public surface of the client library (kvstorectl and the operator import from here).
 */
export { createClient, type Client } from './client.js';
export type { ClientOptions, ClientLogger, AttemptFailure, TlsOptions } from './options.js';
export { DEFAULT_MAX_CALL_RECV_MSG_SIZE, DEFAULT_MAX_CALL_SEND_MSG_SIZE } from './options.js';
export type { Result } from './result.js';
export { ok, fail } from './result.js';
export { errorStatusText, statusText, isErrorKind, LocalErrorKind, type ClientError, type ClientErrorKind } from './errors.js';
export { EtcdErrorKind, ETCD_ERROR_MESSAGES } from './etcd-errors.js';
export { GrpcCode, grpcCodeName } from './grpc-codes.js';
export type { CallOptions } from './invoker.js';
export { prefixEnd, toBytes, type KeyLike, type RangeSelection } from './keys.js';
export { compare, CompareOp, Op, SortOrder, SortTarget, type CompareTarget, type DeleteOptions, type GetOptions, type PutOptions } from './ops.js';
export type { KV, TxnSpec } from './kv.js';
export type { Lease, KeepAliveOptions } from './lease.js';
export type { Cluster } from './cluster.js';
export { AlarmType, type Maintenance, type SnapshotChunk } from './maintenance.js';
export type { Auth } from './auth.js';
export { SnapshotChecksum } from './snapshot-checksum.js';
export type { WatchOptions, WatchUpdate, Watcher } from './watch.js';
export { newSession, DEFAULT_SESSION_TTL, type Session } from './concurrency/session.js';
export { newMutex, type Mutex } from './concurrency/mutex.js';
export { newElection, type Election, type LeaderUpdate } from './concurrency/election.js';
