/**
 * A test backend that widens the gaps an async store has in production: every write is
 * applied at once but acknowledged one macrotask later, and every async read or view waits one
 * macrotask before it starts. Code that relies on ordering through the store's io queue keeps
 * working; code that does not shows its races deterministically.
 */
import type { Backend, BackendOp, EntryBatch, IterateOptions, ReadView } from '../../../server/storage/backend.js';
import type { Bucket } from '../../../server/storage/backend.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function* later<T>(source: () => AsyncIterable<T>): AsyncGenerator<T> {
  await turn();
  yield* source();
}

export function slowBackend(inner: Backend): Backend {
  return {
    get: async (bucket: Bucket, key: Buffer) => (await turn(), inner.get(bucket, key)),
    iterate: (bucket: Bucket, options?: IterateOptions) => later(() => inner.iterate(bucket, options)),
    batches: (bucket: Bucket, options?: IterateOptions): AsyncIterable<EntryBatch> => later(() => inner.batches(bucket, options)),
    close: () => inner.close(),
    getSync: (bucket: Bucket, key: Buffer) => inner.getSync(bucket, key),
    getMany: async (bucket: Bucket, keys: readonly Buffer[]) => (await turn(), inner.getMany(bucket, keys)),
    write: async (ops: readonly BackendOp[], options?: { readonly sync?: boolean }) => {
      const written = inner.write(ops, options);
      await turn();
      await written;
    },
    snapshot: async (): Promise<ReadView> => (await turn(), inner.snapshot()),
    size: () => inner.size(),
    defragment: () => inner.defragment(),
  };
}
