/**
 * The data the v2 store exchanges: requests (replicated through the log), events (answers,
 * watch notifications, history) and the external view of nodes.
 *
 * Contract:
 * - paths are store paths: the user key space lives under `/1` (`/v2/keys/foo` is `/1/foo`),
 *   cluster-internal keys under `/0`; the store cleans every path like Go's `path.Clean`;
 * - indices are `bigint`; times are absolute milliseconds since the Unix epoch;
 * - a request carries an absolute `expiration`, never a relative TTL, so that every member
 *   applying the same log entry builds the same state (the edge turns `ttl` into it);
 * - all data is readonly; events handed out are never mutated by the store afterwards.
 */

export const V2Action = {
  Get: 'get',
  Create: 'create',
  Set: 'set',
  Update: 'update',
  Delete: 'delete',
  CompareAndSwap: 'compareAndSwap',
  CompareAndDelete: 'compareAndDelete',
  Expire: 'expire',
} as const;
export type V2Action = (typeof V2Action)[keyof typeof V2Action];

/** A node as clients see it (etcd's NodeExtern). */
export interface V2Node {
  /** Store path, e.g. `/1/foo`. */
  readonly key: string;
  /** Files only (an empty string is a value); absent for directories and deletion nodes. */
  readonly value?: string;
  readonly dir?: true;
  /** Absolute expiry (ms) of a node with a TTL. */
  readonly expiration?: number;
  /** Remaining seconds at the time the node was rendered (ceil; 0 or less once due). */
  readonly ttl?: number;
  /** Children of a listed directory (hidden `_names` left out). */
  readonly nodes?: readonly V2Node[];
  readonly modifiedIndex: bigint;
  readonly createdIndex: bigint;
}

export interface V2Event {
  readonly action: V2Action;
  readonly node: V2Node;
  readonly prevNode?: V2Node;
  /** Store index when the event was produced (the `X-Etcd-Index` of the answer). */
  readonly etcdIndex: bigint;
  /** TTL refresh without value change: kept in history, never sent to watchers. */
  readonly refresh?: true;
}

export const V2Method = {
  Put: 'PUT',
  Post: 'POST',
  Delete: 'DELETE',
  /** A linearizable read (`quorum=true`): goes through the log, changes nothing. */
  Get: 'GET',
} as const;
export type V2Method = (typeof V2Method)[keyof typeof V2Method];

/**
 * One v2 operation as plain data. Which store operation runs is decided by `apply`
 * (apply.ts) exactly as etcd's v2 applier does:
 * - PUT: prevExist=true → update (or compareAndSwap with prevValue/prevIndex);
 *   prevExist=false → create; prevValue/prevIndex → compareAndSwap; otherwise set;
 * - POST: create an in-order key under `path`;
 * - DELETE: prevValue/prevIndex → compareAndDelete; otherwise delete (dir, recursive);
 * - GET: get (recursive, sorted).
 */
export interface V2Request {
  readonly method: V2Method;
  readonly path: string;
  readonly value?: string;
  readonly dir?: boolean;
  /** Compare against the current value; empty means "no value comparison". */
  readonly prevValue?: string;
  /** Compare against the current modifiedIndex; 0 means "no index comparison". */
  readonly prevIndex?: bigint;
  readonly prevExist?: boolean;
  readonly recursive?: boolean;
  readonly sorted?: boolean;
  /** Keep the current value and only reset the TTL. */
  readonly refresh?: boolean;
  /** Absolute expiry in ms; absent = permanent. */
  readonly expiration?: number;
}

/** Options of `watch`. */
export interface V2WatchOptions {
  readonly recursive?: boolean;
  /** Keep delivering events until cancelled (otherwise one event, then done). */
  readonly stream?: boolean;
  /** First index of interest; 0 or absent = the next write. */
  readonly sinceIndex?: bigint;
}

/** A registered (or already answered) watch. */
export interface V2Watch {
  /** Store index when the watch was made (the `X-Etcd-Index` of a wait answer). */
  readonly startIndex: bigint;
  /** Set when the answer was already in the history; nothing is registered then. */
  readonly event?: V2Event;
  /** Unregisters. Idempotent; a no-op once a one-shot watch has fired. */
  cancel(): void;
}
