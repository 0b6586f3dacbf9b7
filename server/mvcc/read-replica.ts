/**
 * A read replica of a store, for serializable reads on another thread (frontend/README.md).
 *
 * The store that owns the data sends an image once — its key index (in the index checkpoint's
 * layout, index-checkpoint.ts, with no record ledger) and the changes its backend does not hold
 * yet — and then every change, release and compaction as it happens (store-feed.ts). The
 * replica keeps the same state a store keeps (state.ts: index, unflushed map, hot-record
 * cache) over its own handle on the same backend database, and reads with the store's own
 * read code (read.ts), so a range here answers what the store would have answered at the
 * replica's revision.
 *
 * Usage (owner's side): `replicaImageOf(state)`; replica's side: `ReadReplica.fromImage`,
 * then `applyChange` / `release` / `compact` in the order the feed gave them, `range` any time.
 * A read that finds a record gone (the owner's compaction removed it before the replica heard
 * of the compaction) throws or fails; the caller asks the owner instead.
 */
import { Event_EventType, type Event } from '../../proto/gen/etcd/kv.js';
import type { Result } from '../errors/domain-error.js';
import type { Backend } from '../storage/backend.js';
import { takeEndedChange } from './ended-change.js';
import { history } from './history.js';
import { decodeIndexCheckpoint, encodeIndexCheckpoint } from './index-checkpoint.js';
import { liveRecordAtHand, storeRange } from './read.js';
import type { StoreState } from './state.js';
import { newStoreState } from './state.js';
import { keyName } from './tree-index.js';
import type { RangeParams, RangeResult } from './types.js';
import type { FlushBatch } from './unflushed.js';
import { readPrevSync, unreadPrev } from './unread-prev.js';

export interface ReplicaImage {
  /** The key index, revisions and compact revision (an index checkpoint with no records). */
  readonly index: Buffer;
  /** The changes not in the backend yet, in revision order. */
  readonly pending: FlushBatch;
}

const NO_RECORDS = { length: 0, main: new Float64Array(0), sub: new Uint32Array(0), tombstone: new Uint8Array(0), valueLength: new Uint32Array(0) };

export function replicaImageOf(state: StoreState): ReplicaImage {
  const meta = { consistentIndex: state.consistentIndex, scheduledCompactRev: state.compactRevision, finishedCompactRev: state.compactRevision };
  const index = encodeIndexCheckpoint({ meta, currentRevision: state.currentRevision, records: NO_RECORDS, index: state.index });
  return { index, pending: state.unflushed.between(0n, state.currentRevision) };
}

/** The hot-record cache of a replica (smaller than a store's: it serves reads only). */
const REPLICA_CACHE_BYTES = 4 * 1024 * 1024;

export class ReadReplica {
  private constructor(private readonly state: StoreState) {}

  /** A replica over `backend` from an image's index; its pending changes follow with `hold`. */
  static fromImage(backend: Backend, index: Buffer): ReadReplica {
    const image = decodeIndexCheckpoint(index);
    const state = newStoreState(backend, { recordCacheBytes: REPLICA_CACHE_BYTES });
    for (const ki of image.keys) state.index.restore(ki);
    state.currentRevision = image.currentRevision;
    state.compactRevision = image.meta.finishedCompactRev;
    state.consistentIndex = image.meta.consistentIndex;
    return new ReadReplica(state);
  }

  get currentRevision(): bigint {
    return this.state.currentRevision;
  }

  get compactRevision(): bigint {
    return this.state.compactRevision;
  }

  /** A change of the image that the backend did not hold yet (the index has it already). */
  hold(main: bigint, events: (Event | undefined)[]): void {
    this.state.unflushed.add(main, events as Event[]);
  }

  /**
   * A write transaction ended on the owner at `main` (newer than every change seen). With
   * `withPrev`, each event gets the key's record before the change as its prevKv, unread
   * (unread-prev.ts; `readPrev` reads it), as the owner's own events carry it for watchers.
   */
  applyChange(main: bigint, events: Event[], withPrev = false): void {
    const names = events.map((e) => keyName(e.kv!.key));
    if (withPrev) {
      // A key changed twice in one transaction: the second change's previous record is the first's.
      const earlier = events.length > 1 ? new Map<string, Event>() : undefined;
      for (let i = 0; i < events.length; i++) {
        const ev = events[i]!;
        const before = earlier?.get(names[i]!);
        if (before !== undefined) ev.prevKv = before.type === Event_EventType.PUT ? before.kv : undefined;
        else {
          const ki = this.state.index.getByName(names[i]!);
          ev.prevKv = ki?.isLive === true ? (liveRecordAtHand(this.state, ki) ?? unreadPrev(ki)) : undefined;
        }
        earlier?.set(names[i]!, ev);
      }
    }
    takeEndedChange(this.state, main, events, names);
  }

  /** Every change with main ≤ `main` is in the backend. */
  release(main: bigint): void {
    this.state.unflushed.releaseThrough(main);
  }

  /** The owner compacted its index at `revision`. */
  compact(revision: bigint): void {
    if (revision <= this.state.compactRevision) return;
    this.state.compactRevision = revision;
    this.state.index.compactEach(revision);
  }

  range(params: RangeParams): Promise<Result<RangeResult>> {
    return storeRange(this.state, params);
  }

  /** The events of revisions [from, to] on a key range, as the owner's `history` gives them. */
  history(from: bigint, to: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>> {
    return history(this.state, from, to, key, rangeEnd);
  }

  /** `events` (from `applyChange` with `withPrev`) with their previous records read. */
  readPrev(events: readonly Event[]): readonly Event[] {
    return readPrevSync(this.state, events);
  }

  /** Keys with a live record. */
  get keyCount(): number {
    return this.state.index.liveCount;
  }
}
