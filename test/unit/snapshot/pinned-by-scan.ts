/**
 * Test side: a backend view pinned with the sizes of its `key` bucket's records measured by
 * scanning it (what the MVCC store's record ledger keeps without a scan), for driving the
 * streamed snapshot over a bare backend.
 */
import type { PinnedSnapshot } from '../../../server/mvcc/types.js';
import { Bucket, type Backend, type ReadView } from '../../../server/storage/backend.js';

export async function sizesOf(view: ReadView): Promise<PinnedSnapshot['records']> {
  const mains: number[] = [];
  const subs: number[] = [];
  const tomb: number[] = [];
  const lens: number[] = [];
  for await (const { entries, keyStart } of view.batches(Bucket.Key)) {
    for (const [k, v] of entries) {
      mains.push(k.readUInt32BE(keyStart) * 0x100000000 + k.readUInt32BE(keyStart + 4));
      subs.push(k.readUInt32BE(keyStart + 13));
      tomb.push(k.length - keyStart - 17);
      lens.push(v?.length ?? 0);
    }
  }
  return { length: lens.length, main: Float64Array.from(mains), sub: Uint32Array.from(subs), tombstone: Uint8Array.from(tomb), valueLength: Uint32Array.from(lens) };
}

export function pinByScan(backend: Backend): () => Promise<PinnedSnapshot> {
  return async () => {
    const view = await backend.snapshot();
    return { view, records: await sizesOf(view) };
  };
}
