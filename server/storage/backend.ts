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

export interface ReadView {
  get(bucket: Bucket, key: Buffer): Promise<Buffer | undefined>;
  iterate(bucket: Bucket, options?: IterateOptions): AsyncIterable<readonly [Buffer, Buffer]>;
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
  /** Bytes the store occupies on disk (logical size for the memory backend). */
  size(): Promise<number>;
  /** Reclaims space (LevelDB compaction / nothing in memory). */
  defragment(): Promise<void>;
}
