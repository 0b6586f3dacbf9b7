/**
 * The watch hub's ports and public shapes.
 *
 * The hub reads history only through `WatchHubDeps` (a narrow view of MvccStore plus the
 * member's header factory); it owns no timers and reads no clock: the member drives it with
 * notify() after every applied write, compacted() after every compaction and progressTick()
 * on the progress-notify interval.
 *
 * Back-pressure contract (see WatchSend): `send` may return `false` to say "the transport is
 * over its high-water mark". The response passed in that call is still owned by the transport
 * (never dropped). The hub then holds everything else for that stream until the edge calls
 * `resume()` on the session (e.g. on the gRPC stream's 'drain' event). An edge that cannot
 * observe drain simply returns nothing (or true) and never blocks.
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { ResponseHeader, WatchResponse } from '../../proto/gen/etcd/rpc.js';
import type { Result } from '../errors/domain-error.js';
import type { WatchSession } from '../api/services.js';

export interface WatchHubDeps {
  /**
   * Events with revision in [from, to] (inclusive) on [key, rangeEnd) in etcd range form
   * (empty rangeEnd → just key; [0x00] → every key ≥ key), revision order, key order within a
   * revision, prevKv filled when a previous value existed. Error `Compacted` when from is below
   * the compacted revision.
   */
  history(from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>>;
  /** The store's current revision. */
  currentRevision(): bigint;
  /** The store's compacted revision (0 if never compacted). */
  compactRevision(): bigint;
  /** A response header for the given revision (cluster id, member id, raft term filled). */
  header(revision: bigint): ResponseHeader;
  /** Fragmenting threshold in bytes: max-request-bytes + 512 KiB. */
  maxEventBytes: number;
  /** Revisions read per history call while catching up (default 1000). */
  catchUpRevisions?: number;
  /** Unsynced watchers caught up concurrently per round (default 64). */
  catchUpConcurrency?: number;
  /**
   * Events a blocked stream may hold before its watchers become victims (default 4096).
   * A victim stops receiving live events and later catches up from history.
   */
  maxPendingEvents?: number;
}

/**
 * Delivers one response to the client, in call order. Return `false` when the transport's
 * buffer is over its bound: the hub stops sending on this stream until `resume()`.
 * `true` or no return value means "keep sending". Throwing closes the session.
 */
export type WatchSend = (resp: WatchResponse) => boolean | void;

export interface WatchHubSession extends WatchSession {
  /** The transport drained after `send` returned false: deliver what was held back. */
  resume(): void;
}

export interface WatchStats {
  /** Open sessions. */
  readonly streams: number;
  /** Registered watchers in all groups. */
  readonly watchers: number;
  /** Watchers not receiving live events: unsynced + victims. */
  readonly slowWatchers: number;
  /** Events held in blocked streams' outboxes. */
  readonly pendingEvents: number;
}
