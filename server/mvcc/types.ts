/**
 * The MVCC store's public shapes. The implementation lives in store.ts (one class per idea
 * under mvcc/); this file is the contract the apply layer, watch hub and API layer rely on.
 *
 * Revisions: a fresh store is at revision 1; each write transaction that changes something
 * takes the next main revision; changes inside it are numbered by sub revision 0,1,2…
 * All revisions are bigint.
 */
import type { KeyValue, Event } from '../../proto/gen/etcd/kv.js';
import type { Result } from '../errors/domain-error.js';
import type { Backend, ReadView } from '../storage/backend.js';
import type { RecordSizes } from './record-ledger.js';

export type { KeyValue, Event };

export const SortOrder = { None: 0, Ascend: 1, Descend: 2 } as const;
export type SortOrder = (typeof SortOrder)[keyof typeof SortOrder];
export const SortTarget = { Key: 0, Version: 1, Create: 2, Mod: 3, Value: 4 } as const;
export type SortTarget = (typeof SortTarget)[keyof typeof SortTarget];

/** A range read, with etcd's RangeRequest semantics (range_end rules, filters, sort, limit). */
export interface RangeParams {
  readonly key: Buffer;
  /** empty → just key; [0x00] → all keys ≥ key; key=[0x00] & end=[0x00] → all keys. */
  readonly rangeEnd: Buffer;
  /** 0 → unlimited. */
  readonly limit: bigint;
  /** ≤ 0 → current revision. */
  readonly revision: bigint;
  readonly sortOrder: number;
  readonly sortTarget: number;
  readonly keysOnly: boolean;
  readonly countOnly: boolean;
  readonly minModRevision: bigint;
  readonly maxModRevision: bigint;
  readonly minCreateRevision: bigint;
  readonly maxCreateRevision: bigint;
}

export interface RangeResult {
  readonly kvs: KeyValue[];
  /** Keys in range at that revision, before limit and min/max filters. */
  readonly count: bigint;
  readonly more: boolean;
}

/** A write transaction: created by MvccStore.beginWrite, run synchronously inside one apply step. */
export interface WriteTxn {
  /** The main revision this transaction writes at (current + 1). */
  readonly revision: bigint;
  /** Reads see the transaction's own earlier writes. Errors: Compacted, FutureRev. */
  range(params: RangeParams): Promise<Result<RangeResult>>;
  /** Latest live value of one key as this transaction sees it. */
  get(key: Buffer): KeyValue | undefined;
  /**
   * Writes key; returns the new record and the previous live one (if any). The previous
   * record's value may be unread (unread-prev.ts): read it with `get` first when it matters.
   */
  put(key: Buffer, value: Buffer, lease: bigint): { readonly kv: KeyValue; readonly prev: KeyValue | undefined };
  /** Deletes every live key in the range; returns the deleted records in key order. */
  deleteRange(key: Buffer, rangeEnd: Buffer): KeyValue[];
  /**
   * Ends the transaction: makes its changes visible and queues them for the backend
   * (see MvccStore.flush). The store revision moves to `revision` only if something changed.
   * Returns the events (in change order, each with prevKv set when a previous value existed;
   * a put's prevKv may be unread: `MvccStore.readPrev` reads it).
   */
  end(): { readonly revision: bigint; readonly events: Event[] };
}

export interface HashKVResult {
  readonly hash: number;
  readonly compactRevision: bigint;
  /** The revision the hash was taken at. */
  readonly revision: bigint;
}

/** What a pin holds (`view`: a backend view, or what `pinView` pinned) and the records of its `key` bucket (MvccStore.pinSnapshot). */
export interface Pinned<V> {
  /** The pinned view; the caller closes it. */
  readonly view: V;
  /** Exactly the records the view's `key` bucket holds, in revision order, with their value lengths. */
  readonly records: RecordSizes;
}

/** A pinned backend view of this thread and its records. */
export type PinnedSnapshot = Pinned<ReadView>;

/** Backend size in bytes (MvccStore.size). */
export interface StoreSize {
  /** What the file would hold: the high-water mark of `inUse` since the last defragmentation. */
  readonly allocated: number;
  /** What the live records occupy. */
  readonly inUse: number;
}

export interface MvccStore {
  readonly currentRevision: bigint;
  /** Key and value bytes of changes ended but not yet written to the backend. */
  readonly unflushedBytes: number;
  /** Highest compacted revision (0 if never compacted). */
  readonly compactRevision: bigint;
  /** Index of the last applied log entry whose effects are in the store. */
  readonly consistentIndex: bigint;
  /** Number of live keys. */
  readonly keyCount: number;

  /**
   * The backend size as etcd reports its bbolt file (record-ledger.ts, space accounting), for
   * the quota, Status and the size gauges: `allocated` grows with the records flushed and
   * falls only at `shrinkToFit`; `inUse` also falls when a compaction removes records. Both
   * include a fixed part (a fresh etcd file's pages). Changes not flushed yet are not counted.
   */
  readonly size: StoreSize;
  /**
   * A defragmentation of the accounting: once every compaction started so far has finished
   * its backend pass, the allocated size becomes the size in use.
   */
  shrinkToFit(): Promise<void>;

  range(params: RangeParams): Promise<Result<RangeResult>>;
  beginWrite(): WriteTxn;
  /** Compacts history below `revision`. Errors: Compacted (≤ current compact rev), FutureRev. */
  compact(revision: bigint): Result<{ readonly done: Promise<void> }>;
  /**
   * Writes every change ended since the last flush, the consistent index and any extra
   * ops (lease, alarm, … buckets) as ONE backend batch, not synced unless asked (the WAL is
   * the durable record until a snapshot releases it). Calls are serialised by the caller.
   */
  flush(
    consistentIndex: bigint,
    extra?: readonly import('../storage/backend.js').BackendOp[],
    /** sync: the batch (and everything written before it) is on stable storage when this resolves. */
    options?: { readonly sync?: boolean },
  ): Promise<void>;
  /**
   * `events` (of `WriteTxn.end`) with every unread prevKv read, synchronously; the same array
   * when there is none. A previous record compacted away meanwhile leaves prevKv out.
   */
  readPrev(events: readonly Event[]): readonly Event[];
  /** Events with revision in [fromRevision, toRevision], in change order (sub revision) within a revision; prevKv filled. Error: Compacted. */
  history(fromRevision: bigint, toRevision: bigint, key: Buffer, rangeEnd: Buffer): Promise<Result<Event[]>>;
  hash(): Promise<number>;
  /** Hash of all MVCC records with revision ≤ `revision` (0 → current). */
  hashKV(revision: bigint): Promise<Result<HashKVResult>>;
  /**
   * Pins a backend view with no backend write in flight, together with a frozen copy of the
   * record ledger taken at the same instant (the layout a snapshot writer needs before it
   * scans). Changes not flushed yet are in neither. The caller closes `view`.
   * With `pinView`, that is what pins the view, run in the same instant instead of
   * `backend.snapshot()` (a worker thread's own snapshot of the shared database).
   */
  pinSnapshot(): Promise<PinnedSnapshot>;
  pinSnapshot<V>(pinView: (backend: Backend) => Promise<V>): Promise<Pinned<V>>;
}
