/**
 * THE table of the v2 edge: v2 error code → HTTP status (etcd's v2error.errorStatus; any
 * code not listed is 400), and the mapping of a failure to replicate (DomainError) to the
 * v2 error etcd sends for it: 300 `Raft Internal Error` with the error's text as cause and
 * index 0 (HTTP 500).
 */
import type { DomainError } from '../../../errors/domain-error.js';
import { v2Error, V2ErrorCode, type V2Error } from '../../../v2store/errors.js';

const STATUS: ReadonlyMap<number, number> = new Map([
  [V2ErrorCode.KeyNotFound, 404],
  [V2ErrorCode.NotFile, 403],
  [V2ErrorCode.DirNotEmpty, 403],
  [V2ErrorCode.Unauthorized, 401],
  [V2ErrorCode.TestFailed, 412],
  [V2ErrorCode.NodeExist, 412],
  [V2ErrorCode.RaftInternal, 500],
  [V2ErrorCode.LeaderElect, 500],
]);

export function v2HttpStatus(code: number): number {
  return STATUS.get(code) ?? 400;
}

/** The v2 error for a request that could not be applied; `describe` gives etcd's error text. */
export function raftInternalError(e: DomainError, describe: (e: DomainError) => string): V2Error {
  return v2Error(V2ErrorCode.RaftInternal, describe(e), 0n);
}
