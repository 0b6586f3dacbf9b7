/**
 * The storage port: an ordered byte-key store with named buckets and atomic batches.
 *
 * Implementations: memory-backend.ts (tests, simulation) and level-backend.ts (`level`,
 * on disk under <data-dir>/member/snap/db). Both pass test/unit/storage/backend-conformance.
 *
 * Contract:
 * - keys order by unsigned byte comparison within a bucket; buckets are disjoint;
 * - `write` applies all ops atomically (all or none visible, also across a crash);
 *   `sync: true` returns only after the batch is on stable storage;
 * - `iterate` sees a consistent view taken when it is called (later writes are invisible);
 *   `batches` is the same scan handed out a batch of entries at a time (bulk readers: the
 *   snapshot writer), with no per-entry object of its own;
 * - `snapshot` pins a consistent view for a longer read (e.g. streaming a snapshot).
 * - `getSync` reads one key without leaving the caller's turn (a write transaction that needs
 *   a stored record); `getMany` reads many keys in one call, all from one consistent view.
 * - `write` does not keep the caller's buffers (callers may reuse them once it returned);
 *   buffers handed out by `get`/`iterate` may be shared with the store: never mutate them;
 * - every iterable returned by `iterate` must be consumed or broken out of (an abandoned one
 *   may hold resources until `close`).
 */
export const Bucket = {
  Key: 'key',
  Meta: 'meta',
  Lease: 'lease',
  Alarm: 'alarm',
  Cluster: 'cluster',
  Members: 'members',
  MembersRemoved: 'members_removed',
  Auth: 'auth',
  AuthUsers: 'authUsers',
  AuthRoles: 'authRoles',
} as const;
export type Bucket = (typeof Bucket)[keyof typeof Bucket];

export type BackendOp =
  | { readonly type: 'put'; readonly bucket: Bucket; readonly key: Buffer; readonly value: Buffer }
  | { readonly type: 'del'; readonly bucket: Bucket; readonly key: Buffer };

export interface IterateOptions {
  /** Inclusive lower bound (default: first key). */
  readonly gte?: Buffer;
  /** Exclusive upper bound (default: after the last key). */
  readonly lt?: Buffer;
  readonly reverse?: boolean;
  readonly limit?: number;
  /** Only keys are needed: values may come back empty (saves reading them where the store can). */
  readonly keysOnly?: boolean;
}

/**
 * Consecutive entries of one scan, in order: entry i's key is `entries[i][0]` from byte
 * `keyStart` on (the bytes before it are the store's own, e.g. LevelDB's bucket prefix) and its
 * value `entries[i][1]` (undefined or empty under `keysOnly`). The arrays belong to the reader.
 */
export interface EntryBatch {
  readonly entries: readonly (readonly [Buffer, Buffer | undefined])[];
  readonly keyStart: number;
}

export interface ReadView {
  get(bucket: Bucket, key: Buffer): Promise<Buffer | undefined>;
  iterate(bucket: Bucket, options?: IterateOptions): AsyncIterable<readonly [Buffer, Buffer]>;
  /** `iterate` a batch at a time (sizes are the store's choice; never an empty batch). */
  batches(bucket: Bucket, options?: IterateOptions): AsyncIterable<EntryBatch>;
  /** Releases the view; further calls fail. */
  close(): Promise<void>;
}

export interface Backend extends ReadView {
  /** The value of `key` now, read synchronously (blocks on the disk when not cached). */
  getSync(bucket: Bucket, key: Buffer): Buffer | undefined;
  /** The values of `keys` (undefined where absent), in order, read from one consistent view. */
  getMany(bucket: Bucket, keys: readonly Buffer[]): Promise<(Buffer | undefined)[]>;
  write(ops: readonly BackendOp[], options?: { readonly sync?: boolean }): Promise<void>;
  /** A pinned consistent view. */
  snapshot(): Promise<ReadView>;
  /**
   * Where a worker thread of this process may open the same database (openLevelBackend, in
   * the worker: it then shares this one); undefined when the data lives in this thread only.
   */
  readonly sharedLocation?: string;
  /** Bytes the store occupies on disk (logical size for the memory backend). */
  size(): Promise<number>;
  /** Reclaims space (LevelDB compaction / nothing in memory). */
  defragment(): Promise<void>;
  /**
   * Gives back the memory that reading the whole store left mapped (LevelDB maps each table
   * file it reads). Called once, right after a recovery scan, while nothing else uses the
   * backend; absent where reads map nothing.
   */
  dropReadMappings?(): Promise<void>;
}

/** Entries per batch of `batchesOf`. */
const BATCH_ENTRIES = 1000;

/** `entries` in batches of up to BATCH_ENTRIES (keys whole: keyStart 0). */
export async function* batchesOf(entries: AsyncIterable<readonly [Buffer, Buffer]>): AsyncGenerator<EntryBatch> {
  let batch: (readonly [Buffer, Buffer])[] = [];
  for await (const e of entries) {
    batch.push(e);
    if (batch.length === BATCH_ENTRIES) {
      yield { entries: batch, keyStart: 0 };
      batch = [];
    }
  }
  if (batch.length > 0) yield { entries: batch, keyStart: 0 };
}
