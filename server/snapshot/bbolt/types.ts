/**
 * The public shapes of the bbolt reader and writer (layout: FORMAT.md beside this file).
 *
 * Keys and values are raw bytes; within a bucket entries come in ascending unsigned byte order,
 * and bucket names ascend the same way (bbolt's root bucket is itself a sorted B+tree).
 */

/** A bbolt database opened for reading; pages are read from the file on demand. */
export interface BoltReader {
  /** Names of the top-level buckets, ascending bytewise (UTF-8 decoded; etcd's are ASCII). */
  bucketNames(): readonly string[];
  /**
   * The entries of one top-level bucket, ascending by key; nested buckets are skipped. Throws
   * for an unknown bucket. The buffers are views of read buffers of up to 256 KiB: copy the
   * ones kept for long. Several iterations may run at once.
   */
  entries(bucket: string): AsyncIterable<readonly [Buffer, Buffer]>;
  /** `entries` a leaf page at a time (bulk readers: one await per page, not per entry); never an empty batch. */
  entryBatches(bucket: string): AsyncIterable<readonly (readonly [Buffer, Buffer])[]>;
  /** Closes the file handle; iterations in progress then fail. */
  close(): Promise<void>;
}

/**
 * Consecutive entries of a bucket (the shape of the backend's `EntryBatch`): entry i's key is
 * `entries[i][0]` from byte `keyStart` on, its value `entries[i][1]` (undefined: empty).
 */
export interface BoltEntryBatch {
  readonly entries: readonly (readonly [Buffer, Buffer | undefined])[];
  readonly keyStart: number;
}

/**
 * One bucket to write: its name and its entries, ascending by key (the writer checks the
 * order), one at a time or in batches (bulk sources: no object per entry on the way).
 */
export type BoltBucketSource =
  | { readonly name: string; readonly entries: AsyncIterable<readonly [Buffer, Buffer]> | Iterable<readonly [Buffer, Buffer]> }
  | { readonly name: string; readonly batches: AsyncIterable<BoltEntryBatch> };
