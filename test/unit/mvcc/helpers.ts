/** Shared helpers for the MVCC unit tests: request builders and short renderings of results. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event, KeyValue } from '../../../proto/gen/etcd/kv.js';
import type { Result } from '../../../server/errors/domain-error.js';
import type { Backend } from '../../../server/storage/backend.js';
import { createMemoryBackend } from '../../../server/storage/memory-backend.js';
import { openLevelBackend } from '../../../server/storage/level-backend.js';
import { openMvccStore, type MvccStoreImpl } from '../../../server/mvcc/store.js';
import type { RangeParams } from '../../../server/mvcc/types.js';

export const b = (s: string): Buffer => Buffer.from(s);

export function params(over: Partial<RangeParams> & { key: Buffer }): RangeParams {
  return {
    rangeEnd: Buffer.alloc(0),
    limit: 0n,
    revision: 0n,
    sortOrder: 0,
    sortTarget: 0,
    keysOnly: false,
    countOnly: false,
    minModRevision: 0n,
    maxModRevision: 0n,
    minCreateRevision: 0n,
    maxCreateRevision: 0n,
    ...over,
  };
}

/** Every key: key [0x00], range_end [0x00]. */
export const ALL = { key: Buffer.from([0]), rangeEnd: Buffer.from([0]) };

/** "key=value@create/mod/version" for a record. */
export function show(kv: KeyValue): string {
  return `${kv.key.toString()}=${kv.value.toString()}@${kv.createRevision}/${kv.modRevision}/${kv.version}${kv.lease !== 0n ? `+${kv.lease}` : ''}`;
}

/** "PUT key=…" / "DELETE key@mod", with " <- prev" when prevKv is set. */
export function showEvent(e: Event): string {
  const head = e.type === 0 ? `PUT ${show(e.kv!)}` : `DELETE ${e.kv!.key.toString()}@${e.kv!.modRevision}`;
  return e.prevKv === undefined ? head : `${head} <- ${show(e.prevKv)}`;
}

export function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`unexpected error ${JSON.stringify(r.error, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`);
  return r.value;
}

export async function rangeShow(store: MvccStoreImpl, p: RangeParams): Promise<string[]> {
  return unwrap(await store.range(p)).kvs.map(show);
}

export function put(store: MvccStoreImpl, key: string, value: string, lease = 0n): bigint {
  const txn = store.beginWrite();
  txn.put(b(key), b(value), lease);
  return txn.end().revision;
}

export function del(store: MvccStoreImpl, key: string, rangeEnd = ''): bigint {
  const txn = store.beginWrite();
  txn.deleteRange(b(key), b(rangeEnd));
  return txn.end().revision;
}

export function freshStore(): Promise<MvccStoreImpl> {
  return openMvccStore(createMemoryBackend());
}

/** A fresh level backend in a temp dir; `reopen` closes and opens it again; `dispose` removes it. */
export async function levelFixture(): Promise<{ backend: () => Backend; reopen: () => Promise<Backend>; dispose: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'kvstore-mvcc-'));
  let current = await openLevelBackend(join(dir, 'db'));
  return {
    backend: () => current,
    reopen: async () => {
      await current.close();
      current = await openLevelBackend(join(dir, 'db'));
      return current;
    },
    dispose: async () => {
      await current.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
