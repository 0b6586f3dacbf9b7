/**
 * v2 errors as values: etcd's v2 error codes and their exact messages (ETCD-FACTS §5.6).
 *
 * Contract:
 * - every failure of the v2 store and of the v2 request parser is a `V2Error`
 *   `{ errorCode, message, cause?, index }`; `message` is always the table text of the code;
 * - `index` is the store index when the error was produced (0 for request-form errors);
 * - the HTTP status of each code lives at the edge (api/http/v2/error-status.ts), not here.
 */

export const V2ErrorCode = {
  KeyNotFound: 100,
  TestFailed: 101,
  NotFile: 102,
  NotDir: 104,
  NodeExist: 105,
  RootReadOnly: 107,
  DirNotEmpty: 108,
  Unauthorized: 110,
  PrevValueRequired: 201,
  TtlNaN: 202,
  IndexNaN: 203,
  InvalidField: 209,
  InvalidForm: 210,
  RefreshValue: 211,
  RefreshTtlRequired: 212,
  RaftInternal: 300,
  LeaderElect: 301,
  WatcherCleared: 400,
  EventIndexCleared: 401,
} as const;
export type V2ErrorCode = (typeof V2ErrorCode)[keyof typeof V2ErrorCode];

const MESSAGES: { readonly [C in V2ErrorCode]: string } = {
  100: 'Key not found',
  101: 'Compare failed',
  102: 'Not a file',
  104: 'Not a directory',
  105: 'Key already exists',
  107: 'Root is read only',
  108: 'Directory not empty',
  110: 'The request requires user authentication',
  201: 'PrevValue is Required in POST form',
  202: 'The given TTL in POST form is not a number',
  203: 'The given index in POST form is not a number',
  209: 'Invalid field',
  210: 'Invalid POST form',
  211: 'Value provided on refresh',
  212: 'A TTL must be provided on refresh',
  300: 'Raft Internal Error',
  301: 'During Leader Election',
  400: 'watcher is cleared due to etcd recovery',
  401: 'The event in requested index is outdated and cleared',
};

export interface V2Error {
  readonly errorCode: V2ErrorCode;
  readonly message: string;
  /** Omitted on the wire when empty. */
  readonly cause?: string;
  readonly index: bigint;
}

/** Outcome of a v2 store operation. */
export type V2Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: V2Error };

export function v2Error(errorCode: V2ErrorCode, cause: string, index: bigint): V2Error {
  return cause === '' ? { errorCode, message: MESSAGES[errorCode], index } : { errorCode, message: MESSAGES[errorCode], cause, index };
}

export const v2Ok = <T>(value: T): V2Result<T> => ({ ok: true, value });
export const v2Fail = <T = never>(errorCode: V2ErrorCode, cause: string, index: bigint): V2Result<T> => ({
  ok: false,
  error: v2Error(errorCode, cause, index),
});

/** Tells a V2Error from anything else carried in the same slot (events have `action`). */
export function isV2Error(x: unknown): x is V2Error {
  return typeof x === 'object' && x !== null && 'errorCode' in x;
}
