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

/**
 * Everything observable about a store, as strings: revisions and counters, a range of every
 * key at every revision kept, the history, both hashes, the leased keys and the record ledger.
 */
export async function observeStore(s: MvccStoreImpl): Promise<string[]> {
  const out = [`rev=${s.currentRevision} compact=${s.compactRevision} ci=${s.consistentIndex} keys=${s.keyCount}`];
  const from = s.compactRevision > 0n ? s.compactRevision : 1n;
  for (let rev = from; rev <= s.currentRevision; rev++) out.push(`@${rev}: ${(await rangeShow(s, params({ ...ALL, revision: rev }))).join(' ')}`);
  out.push(...unwrap(await s.history(from, s.currentRevision, ALL.key, ALL.rangeEnd)).map(showEvent));
  out.push(`hashkv=${JSON.stringify(unwrap(await s.hashKV(0n)).hash)} hash=${await s.hash()}`);
  const leased: string[] = [];
  s.forEachLeasedKey((key, lease) => leased.push(`${key.toString()}:${lease}`));
  out.push(`leased ${leased.join(' ')}`);
  const pinned = await s.pinSnapshot();
  const r = pinned.records;
  out.push(`ledger ${Array.from({ length: r.length }, (_, i) => `${r.main[i]}.${r.sub[i]}${r.tombstone[i] ? 't' : ''}:${r.valueLength[i]}`).join(' ')}`);
  await pinned.view.close();
  return out;
}

/** Puts, deletes, leases, a multi-key transaction, a compaction, many keys with several generations; flushed. */
export async function writeHistory(s: MvccStoreImpl): Promise<void> {
  put(s, 'a', '1');
  put(s, 'b', '1', 3n);
  del(s, 'a');
  put(s, 'a', '2');
  await s.flush(10n);
  const txn = s.beginWrite();
  txn.put(b('c'), b('1'), 0n);
  txn.deleteRange(b('b'), b('c'));
  txn.put(b('b'), b('again'), 7n);
  txn.end();
  put(s, 'a', '3');
  await unwrap(s.compact(4n)).done;
  for (let i = 0; i < 300; i++) {
    put(s, `k/${i % 97}`, `v${i}`, BigInt(i % 5));
    if (i % 7 === 0) del(s, `k/${i % 97}`);
  }
  put(s, '\u00ff\u0000bin', 'x');
  await s.flush(11n);
}
