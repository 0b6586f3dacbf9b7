/**
 * What the v2 HTTP handlers need from the member: the port they are built on.
 *
 * Contract:
 * - `propose` replicates a write (or a quorum GET) through the log and resolves with the
 *   applied outcome: the event, or the store's V2Error (both as `ok` values); a failure
 *   to get it applied (no leader, timeout, stopped…) is a DomainError;
 * - `read` and `watch` work on the local store without the log (paths are store paths,
 *   `/1/...`); `watch` callbacks run inside the store write, synchronously;
 * - ids are lowercase hex without padding, as etcd prints them;
 * - membership changes resolve once applied; `MemberRemoved` is the v2-only refusal for an
 *   id that was removed before (HTTP 410).
 */
import type { DomainError, Result } from '../../../errors/domain-error.js';
import type { V2Error } from '../../../v2store/errors.js';
import type { V2Event, V2Request, V2Watch, V2WatchOptions } from '../../../v2store/types.js';

export interface V2Member {
  /** Lowercase hex, no padding. */
  readonly id: string;
  /** Empty until the member has started and published its attributes. */
  readonly name: string;
  readonly peerURLs: readonly string[];
  readonly clientURLs: readonly string[];
}

export type V2MemberError = DomainError | { readonly kind: 'MemberRemoved' };
export type MemberResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: V2MemberError };

export interface V2ReadOptions {
  readonly recursive: boolean;
  readonly sorted: boolean;
}

export interface V2Port {
  propose(req: V2Request): Promise<Result<V2Event | V2Error>>;
  read(path: string, opts: V2ReadOptions): V2Event | V2Error;
  watch(path: string, opts: V2WatchOptions, onEvent: (e: V2Event) => void): V2Watch | V2Error;
  /** Current store index. */
  index(): bigint;
  readonly clusterIdHex: string;
  /** Committed raft index, for `X-Raft-Index`. */
  raftIndex(): bigint;
  raftTerm(): bigint;
  members(): readonly V2Member[];
  leader(): V2Member | undefined;
  /** Adds a voting member with the given (validated, sorted) peer URLs; resolves with it. */
  addMember(peerURLs: readonly string[]): Promise<MemberResult<V2Member>>;
  removeMember(id: bigint): Promise<MemberResult<void>>;
  updateMember(id: bigint, peerURLs: readonly string[]): Promise<MemberResult<void>>;
}
