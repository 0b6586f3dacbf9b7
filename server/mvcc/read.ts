/**
 * Store reads: revision checks, then the keys of the range from the key index and their
 * records from the unflushed map (changes the backend does not hold yet), the hot-record
 * cache (record-cache.ts) or the backend (`getMany`). Counts and keys-only reads at the current revision are answered
 * from the index alone (it holds the live record's create revision, version and lease).
 *
 * Every ended change is in the unflushed map or the backend: a group leaves the map only
 * once its flush is written. So a record looked up here is found unless a compaction removed
 * it meanwhile; the read then fails with Compacted (a record of the current revision is never
 * removed: compaction keeps each key's newest revision).
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import { Bucket } from '../storage/backend.js';
import type { KeyIndex } from './key-index.js';
import { keyBounds } from './key-range.js';
import { decodeKeyValue } from './kv-codec.js';
import { collectHits, fetchLimit, finishRange, needsValues } from './range.js';
import { encodeRevisionKey, revisionKeyOf, type Revision } from './revision.js';
import type { StoreState } from './state.js';
import { keyBytes } from './tree-index.js';
import type { RangeParams, RangeResult } from './types.js';

const EMPTY_RESULT: RangeResult = { kvs: [], count: 0n, more: false };
const EMPTY = Buffer.alloc(0);

/**
 * The revision a read at `requested` uses (≤ 0 → `latest`), or the error:
 * FutureRev above `latest`, Compacted below the compact revision (equal is allowed).
 */
export function resolveRevision(state: StoreState, requested: bigint, latest: bigint): Result<bigint> {
  if (requested > latest) return fail({ kind: 'FutureRev', currentRevision: state.currentRevision });
  const rev = requested <= 0n ? latest : requested;
  if (rev < state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
  return ok(rev);
}

/** The unflushed record at (main, sub), if that change is still unflushed. */
function unflushedRecord(state: StoreState, main: number, sub: number): KeyValue | undefined {
  const low = state.unflushed.lowestNumber();
  if (low === undefined || main < low) return undefined;
  return state.unflushed.get(BigInt(main), sub)?.kv;
}

/**
 * The records at the given positions of the given keys (none a tombstone), in order;
 * undefined where a record is gone (compacted meanwhile).
 */
export async function readRecords(state: StoreState, kis: readonly KeyIndex[], positions: readonly number[]): Promise<(KeyValue | undefined)[]> {
  const out: (KeyValue | undefined)[] = new Array<KeyValue | undefined>(kis.length);
  const keys: Buffer[] = [];
  const slots: number[] = [];
  for (let i = 0; i < kis.length; i++) {
    const ki = kis[i];
    const main = ki.mainAt(positions[i]);
    const sub = ki.subAt(positions[i]);
    const kv = unflushedRecord(state, main, sub) ?? (positions[i] === ki.size - 1 ? state.cache.get(ki.key, main) : undefined);
    if (kv !== undefined) {
      out[i] = kv;
      continue;
    }
    keys.push(revisionKeyOf(main, sub, false));
    slots.push(i);
  }
  if (keys.length > 0) {
    const values = await fetchValues(state, keys);
    for (let j = 0; j < slots.length; j++) {
      const v = values[j];
      out[slots[j]] = v === undefined ? undefined : decodeKeyValue(v);
    }
    // A read of one key's newest record (a get) keeps it; scans would only churn the cache.
    const only = out[0];
    if (kis.length === 1 && only !== undefined && positions[0] === kis[0].size - 1 && kis[0].isLive) state.cache.set(kis[0].key, only);
  }
  return out;
}

/** Records per `getMany`: a larger read is split in parts that run side by side in the I/O pool. */
const PART = 1024;

/** The backend values of `keys` (revision keys), in order. */
async function fetchValues(state: StoreState, keys: readonly Buffer[]): Promise<(Buffer | undefined)[]> {
  if (keys.length <= PART) return state.backend.getMany(Bucket.Key, keys);
  const parts: Promise<(Buffer | undefined)[]>[] = [];
  for (let i = 0; i < keys.length; i += PART) parts.push(state.backend.getMany(Bucket.Key, keys.slice(i, i + PART)));
  return (await Promise.all(parts)).flat();
}

/** The record at `rev` (not a tombstone), or undefined if gone. */
export async function readRecord(state: StoreState, rev: Revision): Promise<KeyValue | undefined> {
  const ev = state.unflushed.get(rev.main, rev.sub);
  if (ev !== undefined) return ev.kv;
  const value = await state.backend.get(Bucket.Key, encodeRevisionKey(rev.main, rev.sub, false));
  return value === undefined ? undefined : decodeKeyValue(value);
}

/**
 * The live record of `ki`, read synchronously (write transactions). A live key's newest
 * record is never compacted away, so a miss is a broken invariant.
 */
export function liveRecordSync(state: StoreState, ki: KeyIndex): KeyValue {
  const pos = ki.size - 1;
  const main = ki.mainAt(pos);
  const sub = ki.subAt(pos);
  const held = recordInMemory(state, ki.key, main, sub);
  if (held !== undefined) return held;
  const read = backendRecordSync(state, main, sub);
  if (read === undefined) throw new Error(`mvcc: live record ${main}.${sub} missing from the backend`);
  state.cache.set(ki.key, read);
  return read;
}

/** The live record of `ki` when memory holds it (unflushed map, hot-record cache): no backend read. */
export function liveRecordAtHand(state: StoreState, ki: KeyIndex): KeyValue | undefined {
  const pos = ki.size - 1;
  return recordInMemory(state, ki.key, ki.mainAt(pos), ki.subAt(pos));
}

/** Key `name`'s record at (main, sub) when memory holds it: the unflushed map, or the hot-record cache (which holds a key's newest record). */
export function recordInMemory(state: StoreState, name: string, main: number, sub: number): KeyValue | undefined {
  return unflushedRecord(state, main, sub) ?? state.cache.get(name, main);
}

/** The record at (main, sub) read from the backend synchronously; undefined when it is not there (compacted). */
export function backendRecordSync(state: StoreState, main: number, sub: number): KeyValue | undefined {
  const value = state.backend.getSync(Bucket.Key, revisionKeyOf(main, sub, false));
  return value === undefined ? undefined : decodeKeyValue(value);
}

/** The live record of `ki` without its value, from the index alone. */
export function liveMeta(ki: KeyIndex): KeyValue {
  return {
    key: keyBytes(ki),
    createRevision: BigInt(ki.created),
    modRevision: BigInt(ki.mainAt(ki.size - 1)),
    version: BigInt(ki.version),
    value: EMPTY,
    lease: ki.lease,
  };
}

/** The error for a record that should exist but does not, read at revision `rev`. */
export function vanished(state: StoreState, rev: bigint): Result<never> {
  if (rev < state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
  throw new Error(`mvcc: record missing from the backend for a read at revision ${rev}`);
}

/** A range read at the validated revision `rev` (≤ current). */
export async function rangeAt(state: StoreState, params: RangeParams, rev: bigint): Promise<Result<RangeResult>> {
  const bounds = keyBounds(params.key, params.rangeEnd);
  if (bounds.kind === 'none') return ok(EMPTY_RESULT);
  const current = rev === state.currentRevision;
  const { kis, positions, count } = collectHits(state.index, bounds, current ? undefined : Number(rev), fetchLimit(params), params.countOnly);
  if (kis.length === 0) return ok(finishRange(params, [], count));
  if (current && !needsValues(params)) return ok(finishRange(params, kis.map(liveMeta), count));
  const found = await readRecords(state, kis, positions);
  const kvs: KeyValue[] = [];
  for (const kv of found) {
    if (kv === undefined) return vanished(state, rev);
    kvs.push(kv);
  }
  return ok(finishRange(params, kvs, count));
}

/** MvccStore.range: validates the revision, then reads. */
export function storeRange(state: StoreState, params: RangeParams): Promise<Result<RangeResult>> {
  const rev = resolveRevision(state, params.revision, state.currentRevision);
  if (!rev.ok) return Promise.resolve(rev);
  return rangeAt(state, params, rev.value);
}
