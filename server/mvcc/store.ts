/**
 * The MVCC store: MvccStore (types.ts) over a Backend.
 *
 * Memory holds the key index (the revisions of every key, and the create revision, version
 * and lease of each live record) and the changes not flushed yet; records, values included,
 * are read from the backend (README.md draws what lives where; the on-disk format is in
 * FORMAT.md).
 *
 * Usage: `const store = await openMvccStore(backend)`; run each apply step in one
 * `beginWrite()` … `end()`; call `flush(index)` after applying (calls serialised by the
 * caller); `settle()` before closing the backend, and `checkpoint()` then to let the next
 * open skip the scan (index-checkpoint.ts).
 * Records and events returned are shared with the store and must not be mutated.
 */
import type { Event } from '../../proto/gen/etcd/kv.js';
import type { Result } from '../errors/domain-error.js';
import type { Backend, BackendOp, ReadView } from '../storage/backend.js';
import { compact, startCompaction } from './compaction.js';
import { flush } from './flush.js';
import { hash, hashKV } from './hash.js';
import { history } from './history.js';
import { pinSnapshot } from './pin-snapshot.js';
import { storeRange } from './read.js';
import { readPrevSync } from './unread-prev.js';
import { encodeIndexCheckpoint } from './index-checkpoint.js';
import { recoverState, type RecoveredFrom } from './recover.js';
import type { StoreOptions, StoreState } from './state.js';
import type { HashKVResult, MvccStore, Pinned, PinnedSnapshot, RangeParams, RangeResult, StoreSize, WriteTxn } from './types.js';
import { StoreWriteTxn } from './write-txn.js';
import type { StoreFeed } from './store-feed.js';
import { replicaImageOf, type ReplicaImage } from './read-replica.js';

export type { StoreOptions } from './state.js';

/**
 * What `size` counts besides the key bucket's records: a fresh etcd 3.4 member reports
 * dbSizeInUse 16384 (bbolt's meta pages, freelist and bucket roots). The records of the other
 * buckets (members, leases, alarms, auth) are few and small and are taken as part of it.
 */
const FIXED_BYTES = 16 * 1024;

export class MvccStoreImpl implements MvccStore {
  /** Use openMvccStore(). */
  constructor(
    private state: StoreState,
    /** How the open rebuilt the index. */
    readonly recovered: RecoveredFrom = { from: 'scan' },
  ) {}

  /**
   * Rebuilds the store from its backend after the backend's contents were replaced (a
   * snapshot from the leader). Waits for in-flight backend work first; no write transaction
   * may be open. The new state (record ledger included) replaces the old one inside the old
   * state's io queue, so a pinSnapshot queued meanwhile pins the new state.
   */
  async reload(): Promise<void> {
    await this.settle();
    const old = this.state;
    // Inside the old state's io queue: a pin queued meanwhile waits, then pins the new state.
    await old.io.run(async () => {
      const { state, meta } = await recoverState(old.backend, { historyIndexMaxKeys: old.historyIndexMaxKeys, recordCacheBytes: old.recordCacheBytes });
      if (meta.finishedCompactRev > 0n) state.index.compactEach(meta.finishedCompactRev);
      state.feed = old.feed;
      this.state = state;
    });
    this.state.feed?.reloaded();
  }

  /** Who follows the store's changes from now on (store-feed.ts); undefined: nobody. */
  setFeed(feed: StoreFeed | undefined): void {
    this.state.feed = feed;
  }

  /**
   * What a read replica starts from (read-replica.ts): the index as it is now, and the changes
   * the backend does not hold yet. Changes after this reach the replica through the feed.
   */
  replicaImage(): ReplicaImage {
    return replicaImageOf(this.state);
  }

  get currentRevision(): bigint {
    return this.state.currentRevision;
  }

  get compactRevision(): bigint {
    return this.state.compactRevision;
  }

  get consistentIndex(): bigint {
    return this.state.consistentIndex;
  }

  get keyCount(): number {
    return this.state.index.liveCount;
  }

  get size(): StoreSize {
    const { ledger } = this.state;
    return { allocated: FIXED_BYTES + ledger.bytesAllocated, inUse: FIXED_BYTES + ledger.bytesInUse };
  }

  async shrinkToFit(): Promise<void> {
    await this.state.compactionTail;
    // Through the io queue, so no delete batch of a compaction is halfway through.
    await this.state.io.run(() => {
      this.state.ledger.shrinkToFit();
      return Promise.resolve();
    });
  }

  range(params: RangeParams): Promise<Result<RangeResult>> {
    return storeRange(this.state, params);
  }

  /** Opens the write transaction (throws if one is already open). */
  beginWrite(): WriteTxn {
    return new StoreWriteTxn(this.state);
  }

  compact(revision: bigint): Result<{ readonly done: Promise<void> }> {
    return compact(this.state, revision);
  }

  flush(consistentIndex: bigint, extra?: readonly BackendOp[], options?: { readonly sync?: boolean }): Promise<void> {
    return flush(this.state, consistentIndex, extra, options?.sync ?? false);
  }

  readPrev(events: readonly Event[]): readonly Event[] {
    return readPrevSync(this.state, events);
  }

  history(fromRevision: bigint, toRevision: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>> {
    return history(this.state, fromRevision, toRevision, key, rangeEnd);
  }

  hash(): Promise<number> {
    return hash(this.state);
  }

  hashKV(revision: bigint): Promise<Result<HashKVResult>> {
    return hashKV(this.state, revision);
  }

  pinSnapshot(): Promise<PinnedSnapshot>;
  pinSnapshot<V>(pinView: (backend: Backend) => Promise<V>): Promise<Pinned<V>>;
  async pinSnapshot<V>(pinView?: (backend: Backend) => Promise<V>): Promise<Pinned<V | ReadView>> {
    const pin = pinView ?? ((backend: Backend): Promise<ReadView> => backend.snapshot());
    for (;;) {
      const pinned = await pinSnapshot<V | ReadView>(this.state, () => this.state, pin);
      if (pinned !== undefined) return pinned;
    }
  }

  /** Calls `fn` with every live key attached to a lease and its lease (from the index alone). */
  forEachLeasedKey(fn: (key: Buffer, lease: bigint) => void): void {
    this.state.index.forEachLeased(fn);
  }

  /** True while changes ended since the last completed flush are not in the backend. */
  get unflushedBytes(): number {
    return this.state.unflushed.bytes;
  }

  get hasUnflushed(): boolean {
    return !this.state.unflushed.isEmpty;
  }

  /** Resolves once every flush and compaction started so far has finished its backend work. */
  async settle(): Promise<void> {
    await this.state.compactionTail;
    await this.state.io.idle();
  }

  /**
   * The index checkpoint of the store as the backend holds it (index-checkpoint.ts), for a
   * store that is done: settled, with nothing unflushed, no write open and none to come.
   * Throws when changes are still unflushed or a compaction is unfinished.
   */
  checkpoint(): Buffer {
    const s = this.state;
    if (!s.unflushed.isEmpty || s.writing) throw new Error('mvcc: an index checkpoint of a store with unflushed changes');
    if (s.persistedScheduledCompact !== s.compactRevision) throw new Error('mvcc: an index checkpoint of a store with a compaction unfinished');
    const meta = { consistentIndex: s.consistentIndex, scheduledCompactRev: s.persistedScheduledCompact, finishedCompactRev: s.compactRevision };
    return encodeIndexCheckpoint({ meta, currentRevision: s.currentRevision, records: s.ledger.freeze(), index: s.index });
  }
}

/**
 * Opens the store kept in `backend` (empty backend → fresh store at revision 1). Recovers
 * the index, revisions and consistent index — from `checkpoint` when it describes the
 * backend (`store.recovered` says which) —; finishes a compaction a crash interrupted before
 * resolving.
 */
export async function openMvccStore(backend: Backend, options?: StoreOptions, checkpoint?: Buffer): Promise<MvccStoreImpl> {
  const { state, meta, how } = await recoverState(backend, options, checkpoint);
  if (meta.scheduledCompactRev > meta.finishedCompactRev) await startCompaction(state, meta.scheduledCompactRev);
  // A checkpoint's index was compacted before it was written.
  else if (meta.finishedCompactRev > 0n && how.from === 'scan') state.index.compactEach(meta.finishedCompactRev);
  return new MvccStoreImpl(state, how);
}
