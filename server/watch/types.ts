/**
 * The watch hub's ports and public shapes.
 *
 * The hub reads history only through `WatchHubDeps` (a narrow view of MvccStore plus the
 * member's header factory); it owns no timers and reads no clock: the member drives it with
 * notify() after every applied write, compacted() after every compaction and progressTick()
 * on the progress-notify interval.
 *
 * Back-pressure contract (opt-in, see WatchFlow): an edge that can observe its transport
 * draining passes `flow` to openWatch. Then `send` returning `false` ("over the high-water
 * mark"; the response passed in that call still belongs to the transport, nothing is dropped)
 * blocks the stream: the hub holds further responses in the stream's outbox, demotes watchers
 * whose events no longer fit to victims, and waits for `flow.drained()` before retrying.
 * Without `flow` the return value of `send` is ignored (the transport buffers everything), so
 * an edge that never reports draining can never stall a stream.
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { ResponseHeader, WatchResponse } from '../../proto/gen/etcd/rpc.js';
import type { Result } from '../errors/domain-error.js';

export interface WatchHubDeps {
  /**
   * Events with revision in [from, to] (inclusive) on [key, rangeEnd) in etcd range form
   * (empty rangeEnd → just key; [0x00] → every key ≥ key), revision order, key order within a
   * revision, prevKv filled when a previous value existed. Error `Compacted` when from is below
   * the compacted revision.
   */
  history(from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>>;
  /**
   * The events given to `notify` with their prevKv read, for watchers created with `prev_kv`
   * (a put's previous value may be unread: server/mvcc/unread-prev.ts). Absent: the events
   * already carry it.
   */
  readPrev?(events: readonly Event[]): readonly Event[];
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
 * Delivers one response to the client, in call order. Returning `false` means the transport's
 * buffer is over its bound (honoured only when a WatchFlow was given); `true` or nothing means
 * "keep sending". Throwing closes the session.
 */
export type WatchSend = (resp: WatchResponse) => boolean | void;

/** Transport flow control offered by the edge (e.g. a gRPC stream's 'drain' event). */
export type { WatchFlow } from '../api/services.js';

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
