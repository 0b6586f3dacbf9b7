/**
 * The backend as a simulated process sees it: a MemoryBackend whose writes complete as I/O
 * does — in a later task, not in the microtask that issued them — so code awaiting a write
 * can interleave with other work exactly as it can over LevelDB. A write still pending when
 * its process dies never happens. Reads and views are the MemoryBackend's own.
 */
import type { Backend, BackendOp, Bucket, EntryBatch, IterateOptions, ReadView } from '../../../server/storage/backend.js';
import type { MemoryBackend } from '../../../server/storage/memory-backend.js';

export class SimBackend implements Backend {
  readonly #inner: MemoryBackend;
  readonly #defer: (fn: () => void) => void;

  /** `defer` runs a callback as a later task of the owning process (dropped when it dies). */
  constructor(inner: MemoryBackend, defer: (fn: () => void) => void) {
    this.#inner = inner;
    this.#defer = defer;
  }

  get(bucket: Bucket, key: Buffer): Promise<Buffer | undefined> {
    return this.#inner.get(bucket, key);
  }

  getSync(bucket: Bucket, key: Buffer): Buffer | undefined {
    return this.#inner.getSync(bucket, key);
  }

  getMany(bucket: Bucket, keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
    return this.#inner.getMany(bucket, keys);
  }

  iterate(bucket: Bucket, options?: IterateOptions): AsyncIterable<readonly [Buffer, Buffer]> {
    return this.#inner.iterate(bucket, options);
  }

  batches(bucket: Bucket, options?: IterateOptions): AsyncIterable<EntryBatch> {
    return this.#inner.batches(bucket, options);
  }

  #inFlight = 0;
  #issued = 0;

  /** Writes issued so far. */
  get writesIssued(): number {
    return this.#issued;
  }

  /** Writes issued and not yet applied to the inner backend. */
  get writesInFlight(): number {
    return this.#inFlight;
  }

  write(ops: readonly BackendOp[], options?: { readonly sync?: boolean }): Promise<void> {
    const copied = ops.map((op) => ({ ...op }));
    this.#inFlight++;
    this.#issued++;
    return new Promise((resolve, reject) => {
      this.#defer(() => {
        this.#inFlight--;
        this.#inner.write(copied, options).then(resolve, reject);
      });
    });
  }

  snapshot(): Promise<ReadView> {
    return this.#inner.snapshot();
  }

  size(): Promise<number> {
    return this.#inner.size();
  }

  defragment(): Promise<void> {
    return this.#inner.defragment();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
