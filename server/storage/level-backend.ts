/**
 * On-disk Backend on LevelDB (`classic-level`), stored under <data-dir>/member/snap/db.
 *
 * Buckets are one-byte key prefixes (BUCKET_PREFIX below; see server/mvcc/FORMAT.md), so a
 * bucket's records are contiguous and keep unsigned byte order. A batch is one LevelDB write
 * batch (atomic, also across a crash); `sync: true` fsyncs LevelDB's log before resolving.
 * Views rely on LevelDB snapshots: `iterate` creates its iterator (and with it an implicit
 * snapshot) when called, `snapshot()` pins an explicit one. Callers must consume or break
 * out of every iterable they request, or the iterator stays open until `close()`.
 * `size()` sums the sizes of the files in the database directory.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import type { Backend, BackendOp, Bucket, EntryBatch, IterateOptions, ReadView } from './backend.js';

/** Bucket → the byte that prefixes its keys on disk. Never renumber: it is the disk format. */
export const BUCKET_PREFIX = {
  key: 0x01,
  meta: 0x02,
  lease: 0x03,
  alarm: 0x04,
  cluster: 0x05,
  members: 0x06,
  members_removed: 0x07,
  auth: 0x08,
  authUsers: 0x09,
  authRoles: 0x0a,
} as const satisfies Record<Bucket, number>;

type Db = ClassicLevel<Buffer, Buffer>;
type LevelSnapshot = ReturnType<Db['snapshot']>;

/** Where the backend lives inside a data dir. */
export function backendPath(dataDir: string): string {
  return join(dataDir, 'member', 'snap', 'db');
}

function prefixOf(bucket: Bucket): number {
  const p = BUCKET_PREFIX[bucket];
  if (p === undefined) throw new Error(`level backend: unknown bucket ${String(bucket)}`);
  return p;
}

function prefixed(p: number, key: Buffer): Buffer {
  const out = Buffer.allocUnsafe(key.length + 1);
  out[0] = p;
  key.copy(out, 1);
  return out;
}

const BATCH = 256;
/** Entries and bytes per `nextv` of `batches` (classic-level stops a batch at either). */
const BULK_ENTRIES = 1000;
const BULK_BYTES = 1024 * 1024;

interface LevelIteratorOptions {
  gte: Buffer;
  lt: Buffer;
  reverse: boolean;
  limit: number;
  values: boolean;
  snapshot?: LevelSnapshot;
  /** Bytes of keys and values after which a `nextv` returns (classic-level's default: 16 KiB). */
  highWaterMarkBytes?: number;
  /** Whether blocks read go into LevelDB's block cache (classic-level's default for iterators: false). */
  fillCache?: boolean;
}

const NO_VALUE = Buffer.alloc(0);

function iteratorOptions(bucket: Bucket, options: IterateOptions | undefined, snapshot: LevelSnapshot | undefined): LevelIteratorOptions {
  const p = prefixOf(bucket);
  const o: LevelIteratorOptions = {
    gte: options?.gte === undefined ? Buffer.from([p]) : prefixed(p, options.gte),
    lt: options?.lt === undefined ? Buffer.from([p + 1]) : prefixed(p, options.lt),
    reverse: options?.reverse === true,
    limit: options?.limit ?? -1,
    values: options?.keysOnly !== true,
  };
  if (snapshot !== undefined) o.snapshot = snapshot;
  return o;
}

/** A LevelDB iterator as `drainBatches` uses it. */
interface EntryIterator {
  nextv(size: number): Promise<[Buffer, Buffer | undefined][]>;
  close(): Promise<void>;
}

/**
 * Drains a LevelDB iterator in batches of up to `size` entries (and the iterator's byte bound),
 * keys left prefixed (keyStart 1); always closes it. One `nextv` is in flight while the caller
 * works on a batch.
 */
async function* drainBatches(it: EntryIterator, size: number): AsyncGenerator<EntryBatch> {
  let pending: Promise<[Buffer, Buffer | undefined][]> | undefined = it.nextv(size);
  try {
    for (;;) {
      const entries = await pending;
      pending = undefined;
      if (entries.length === 0) return;
      pending = it.nextv(size);
      yield { entries, keyStart: 1 };
    }
  } finally {
    if (pending !== undefined) await pending.catch(() => undefined);
    await it.close();
  }
}

/** The entries of `batches` one at a time, bucket prefix stripped, a missing value empty. */
async function* entriesOf(batches: AsyncIterable<EntryBatch>): AsyncGenerator<readonly [Buffer, Buffer]> {
  for await (const { entries, keyStart } of batches) {
    for (const [k, v] of entries) yield [k.subarray(keyStart), v ?? NO_VALUE] as const;
  }
}

function levelGet(db: Db, bucket: Bucket, key: Buffer, snapshot: LevelSnapshot | undefined): Promise<Buffer | undefined> {
  const k = prefixed(prefixOf(bucket), key);
  return snapshot === undefined ? db.get(k) : db.get(k, { snapshot });
}

function levelIterate(db: Db, bucket: Bucket, options: IterateOptions | undefined, snapshot: LevelSnapshot | undefined): AsyncIterable<readonly [Buffer, Buffer]> {
  if (options?.limit === 0) return drainNothing();
  // Created now, not on first `next()`: the iterator's snapshot is the view of this call.
  return entriesOf(drainBatches(db.iterator<Buffer, Buffer>(iteratorOptions(bucket, options, snapshot)), BATCH));
}

function levelBatches(db: Db, bucket: Bucket, options: IterateOptions | undefined, snapshot: LevelSnapshot | undefined): AsyncIterable<EntryBatch> {
  if (options?.limit === 0) return drainNothing();
  const o = iteratorOptions(bucket, options, snapshot);
  o.highWaterMarkBytes = BULK_BYTES;
  o.fillCache = false;
  return drainBatches(db.iterator<Buffer, Buffer>(o), BULK_ENTRIES);
}

// eslint-disable-next-line require-yield
async function* drainNothing<T>(): AsyncGenerator<T> {
  return;
}

class LevelView implements ReadView {
  constructor(
    private readonly db: Db,
    private readonly snap: LevelSnapshot,
  ) {}

  get(bucket: Bucket, key: Buffer): Promise<Buffer | undefined> {
    return levelGet(this.db, bucket, key, this.snap);
  }

  iterate(bucket: Bucket, options?: IterateOptions): AsyncIterable<readonly [Buffer, Buffer]> {
    return levelIterate(this.db, bucket, options, this.snap);
  }

  batches(bucket: Bucket, options?: IterateOptions): AsyncIterable<EntryBatch> {
    return levelBatches(this.db, bucket, options, this.snap);
  }

  close(): Promise<void> {
    return this.snap.close();
  }
}

export class LevelBackend implements Backend {
  /** Use openLevelBackend(). */
  constructor(
    private db: Db,
    /** The database directory. */
    readonly location: string,
  ) {}

  get(bucket: Bucket, key: Buffer): Promise<Buffer | undefined> {
    return levelGet(this.db, bucket, key, undefined);
  }

  getSync(bucket: Bucket, key: Buffer): Buffer | undefined {
    return this.db.getSync(prefixed(prefixOf(bucket), key));
  }

  getMany(bucket: Bucket, keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    if (keys.length === 0) return Promise.resolve([]);
    const p = prefixOf(bucket);
    return this.db.getMany(keys.map((k) => prefixed(p, k)));
  }

  iterate(bucket: Bucket, options?: IterateOptions): AsyncIterable<readonly [Buffer, Buffer]> {
    return levelIterate(this.db, bucket, options, undefined);
  }

  batches(bucket: Bucket, options?: IterateOptions): AsyncIterable<EntryBatch> {
    return levelBatches(this.db, bucket, options, undefined);
  }

  write(ops: readonly BackendOp[], options?: { readonly sync?: boolean }): Promise<void> {
    if (ops.length === 0) return Promise.resolve();
    // A chained batch costs a fraction of an array batch per op (no per-op option objects).
    const batch = this.db.batch();
    for (const op of ops) {
      const key = prefixed(prefixOf(op.bucket), op.key);
      if (op.type === 'put') batch.put(key, op.value);
      else batch.del(key);
    }
    return batch.write({ sync: options?.sync === true });
  }

  snapshot(): Promise<ReadView> {
    return Promise.resolve(new LevelView(this.db, this.db.snapshot()));
  }

  get sharedLocation(): string {
    return this.location;
  }

  async size(): Promise<number> {
    let total = 0;
    for (const name of await readdir(this.location)) {
      // LevelDB's compaction may delete a table file between the listing and its stat.
      const s = await stat(join(this.location, name)).catch((e: unknown) => {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      });
      if (s?.isFile() === true) total += s.size;
    }
    return total;
  }

  defragment(): Promise<void> {
    return this.db.compactRange(Buffer.from([0x00]), Buffer.from([0xff]));
  }

  /**
   * Closes the database and opens it again: LevelDB keeps every table file it has read mapped
   * into the process (up to 1 000 of them) until the database closes, so after a scan of every
   * record the member's resident size would start at the size of its data. Reads map tables
   * again as they touch them.
   */
  async dropReadMappings(): Promise<void> {
    await this.db.close();
    this.db = await openDb(this.location, false);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/**
 * LevelDB runs with its own memtable size (4 MiB). A 32 MiB one was measured: large-value puts
 * 1.18–1.19× with 0.80–0.82× the CPU, small values unchanged — but with 4 GiB of random 100 KiB
 * values its longer compactions held the backend writes back: 1.5 GiB resident before the member
 * bounded what waits for the backend, 485 MiB after (peak 891 MiB, against 419 MiB with 4 MiB;
 * test/e2e/log-memory.test.ts). Too close to that test's 1 GiB to be taken.
 */
async function openDb(location: string, createIfMissing: boolean): Promise<Db> {
  const db: Db = new ClassicLevel<Buffer, Buffer>(location, { keyEncoding: 'buffer', valueEncoding: 'buffer' });
  await db.open({ createIfMissing, multithreading: true });
  return db;
}

/**
 * Opens (creating if needed, unless `createIfMissing` is false) the LevelDB database in
 * directory `location`. Opened for worker threads: a worker of this process opening the same
 * location shares the open database (its reads see every write) instead of failing on the
 * lock; another process still fails on it. The database closes when its last opener closes it.
 */
export async function openLevelBackend(location: string, options: { readonly createIfMissing?: boolean } = {}): Promise<LevelBackend> {
  return new LevelBackend(await openDb(location, options.createIfMissing ?? true), location);
}
