/**
 * In-memory Backend for tests and the deterministic simulation.
 *
 * Each bucket is a copy-on-write B+ tree; a view (iterate, snapshot) is an O(1) clone taken
 * when it is requested, so later writes never show through it. Writes copy the key and value
 * buffers they are given (callers may reuse theirs); buffers returned by reads are shared
 * with the store and must not be mutated.
 *
 * Crash model: `crash()` returns a new backend holding only what the last `sync: true`
 * write made durable (every earlier write included), as a disk that loses its page cache would.
 * `size()` is the logical size: the sum of key and value lengths of every record.
 */
import type { Backend, BackendOp, Bucket, EntryBatch, IterateOptions, ReadView } from './backend.js';
import { Bucket as Buckets, batchesOf } from './backend.js';
import { newBufferMap, type SortedMap } from './sorted-map.js';

type Tables = Map<Bucket, SortedMap<Buffer, Buffer>>;

function emptyTables(): Tables {
  const tables: Tables = new Map();
  for (const b of Object.values(Buckets)) tables.set(b, newBufferMap<Buffer>());
  return tables;
}

function cloneTables(tables: Tables): Tables {
  const copy: Tables = new Map();
  for (const [b, t] of tables) copy.set(b, t.clone());
  return copy;
}

function tableOf(tables: Tables, bucket: Bucket): SortedMap<Buffer, Buffer> {
  const t = tables.get(bucket);
  if (t === undefined) throw new Error(`memory backend: unknown bucket ${String(bucket)}`);
  return t;
}

/** Yields the entries of `tree` (a private clone) that satisfy `options`, in the requested order. */
async function* scan(tree: SortedMap<Buffer, Buffer>, options: IterateOptions | undefined): AsyncGenerator<readonly [Buffer, Buffer]> {
  const gte = options?.gte;
  const lt = options?.lt;
  const limit = options?.limit ?? -1;
  if (limit === 0) return;
  let n = 0;
  if (options?.reverse === true) {
    const it = lt === undefined ? tree.entriesReversed() : tree.entriesReversed(lt, undefined, true);
    for (const [k, v] of it) {
      if (gte !== undefined && Buffer.compare(k, gte) < 0) return;
      yield [k, v] as const;
      if (++n === limit) return;
    }
    return;
  }
  for (const [k, v] of tree.entries(gte)) {
    if (lt !== undefined && Buffer.compare(k, lt) >= 0) return;
    yield [k, v] as const;
    if (++n === limit) return;
  }
}

/** A read view over a frozen set of tables. */
class MemoryView implements ReadView {
  private closed = false;
  constructor(private readonly tables: Tables) {}

  get(bucket: Bucket, key: Buffer): Promise<Buffer | undefined> {
    if (this.closed) return Promise.reject(new Error('memory backend: view is closed'));
    return Promise.resolve(tableOf(this.tables, bucket).get(key));
  }

  iterate(bucket: Bucket, options?: IterateOptions): AsyncIterable<readonly [Buffer, Buffer]> {
    if (this.closed) throw new Error('memory backend: view is closed');
    return scan(tableOf(this.tables, bucket).clone(), options);
  }

  batches(bucket: Bucket, options?: IterateOptions): AsyncIterable<EntryBatch> {
    return batchesOf(this.iterate(bucket, options));
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

export class MemoryBackend implements Backend {
  private tables: Tables;
  private durable: Tables;
  private bytes: number;
  private closed = false;

  /** Use createMemoryBackend(); `tables` are owned by the new backend. */
  constructor(tables: Tables = emptyTables()) {
    this.tables = tables;
    this.durable = cloneTables(tables);
    let bytes = 0;
    for (const t of tables.values()) t.forEach((v, k) => { bytes += k.length + v.length; });
    this.bytes = bytes;
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('memory backend: closed');
  }

  get(bucket: Bucket, key: Buffer): Promise<Buffer | undefined> {
    if (this.closed) return Promise.reject(new Error('memory backend: closed'));
    return Promise.resolve(tableOf(this.tables, bucket).get(key));
  }

  getSync(bucket: Bucket, key: Buffer): Buffer | undefined {
    this.checkOpen();
    return tableOf(this.tables, bucket).get(key);
  }

  getMany(bucket: Bucket, keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    if (this.closed) return Promise.reject(new Error('memory backend: closed'));
    const t = tableOf(this.tables, bucket);
    return Promise.resolve(keys.map((k) => t.get(k)));
  }

  iterate(bucket: Bucket, options?: IterateOptions): AsyncIterable<readonly [Buffer, Buffer]> {
    this.checkOpen();
    return scan(tableOf(this.tables, bucket).clone(), options);
  }

  batches(bucket: Bucket, options?: IterateOptions): AsyncIterable<EntryBatch> {
    return batchesOf(this.iterate(bucket, options));
  }

  write(ops: readonly BackendOp[], options?: { readonly sync?: boolean }): Promise<void> {
    if (this.closed) return Promise.reject(new Error('memory backend: closed'));
    // Validate every bucket first so a bad op leaves the store untouched (atomic batch).
    for (const op of ops) tableOf(this.tables, op.bucket);
    for (const op of ops) {
      const t = tableOf(this.tables, op.bucket);
      const old = t.get(op.key);
      if (old !== undefined) this.bytes -= op.key.length + old.length;
      if (op.type === 'put') {
        t.set(Buffer.from(op.key), Buffer.from(op.value));
        this.bytes += op.key.length + op.value.length;
      } else if (old !== undefined) {
        t.delete(op.key);
      }
    }
    if (options?.sync === true) this.durable = cloneTables(this.tables);
    return Promise.resolve();
  }

  snapshot(): Promise<ReadView> {
    if (this.closed) return Promise.reject(new Error('memory backend: closed'));
    return Promise.resolve(new MemoryView(cloneTables(this.tables)));
  }

  size(): Promise<number> {
    return Promise.resolve(this.bytes);
  }

  defragment(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }

  /** A new open backend with the state of the last synced write (what survives a machine crash). */
  crash(): MemoryBackend {
    return new MemoryBackend(cloneTables(this.durable));
  }

  /** A new open backend with the full current state (what survives a process crash). */
  copy(): MemoryBackend {
    return new MemoryBackend(cloneTables(this.tables));
  }
}

/** A new, empty in-memory backend. */
export function createMemoryBackend(): MemoryBackend {
  return new MemoryBackend();
}
