/**
 * The state of one MVCC store, shared by the modules that implement its operations
 * (read.ts, write-txn.ts, flush.ts, compaction.ts, history.ts, hash.ts). One instance per
 * store, owned by MvccStoreImpl; nothing here is module-level.
 */
import type { Backend } from '../storage/backend.js';
import { RecordCache } from './record-cache.js';
import { RecordLedger } from './record-ledger.js';
import { SerialQueue } from './serial-queue.js';
import type { StoreFeed } from './store-feed.js';
import { TreeIndex } from './tree-index.js';
import { Unflushed } from './unflushed.js';

export interface StoreState {
  readonly backend: Backend;
  readonly index: TreeIndex;
  readonly unflushed: Unflushed;
  /** Newest records of recently used keys (bounded). */
  readonly cache: RecordCache;
  /** Serialises flush writes with the tasks that need no flush in flight. */
  readonly io: SerialQueue;
  /**
   * Revision, tombstone mark and value length of every record the backend's `key` bucket
   * holds; changed only together with that bucket, inside one `io` task (ledger-ops.ts).
   */
  readonly ledger: RecordLedger;
  currentRevision: bigint;
  compactRevision: bigint;
  consistentIndex: bigint;
  /** The scheduledCompactRev the backend holds (or is being written). */
  persistedScheduledCompact: bigint;
  /** Settles when every compaction started so far has finished its backend pass. */
  compactionTail: Promise<void>;
  /** A write transaction is open. */
  writing: boolean;
  /** history() over at most this many keys reads through the index, wider ranges scan (0: always scan). */
  readonly historyIndexMaxKeys: number;
  /** The cache budget the state was made with (kept for reload). */
  readonly recordCacheBytes: number;
  /** Who follows the store's changes (store-feed.ts), if anyone. */
  feed: StoreFeed | undefined;
}

/** Tuning knobs of a store. */
export interface StoreOptions {
  /** See StoreState.historyIndexMaxKeys (default 32). */
  readonly historyIndexMaxKeys?: number;
  /** Budget of the hot-record cache in bytes (default 8 MiB; 0 disables it). */
  readonly recordCacheBytes?: number;
}

const DEFAULT_RECORD_CACHE_BYTES = 8 * 1024 * 1024;

export function newStoreState(backend: Backend, options: StoreOptions = {}, ledger = new RecordLedger()): StoreState {
  return {
    backend,
    index: new TreeIndex(),
    unflushed: new Unflushed(),
    cache: new RecordCache(options.recordCacheBytes ?? DEFAULT_RECORD_CACHE_BYTES),
    io: new SerialQueue(),
    ledger,
    currentRevision: 1n,
    compactRevision: 0n,
    consistentIndex: 0n,
    persistedScheduledCompact: 0n,
    compactionTail: Promise.resolve(),
    writing: false,
    historyIndexMaxKeys: options.historyIndexMaxKeys ?? 32,
    recordCacheBytes: options.recordCacheBytes ?? DEFAULT_RECORD_CACHE_BYTES,
    feed: undefined,
  };
}
