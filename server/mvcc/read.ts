/**
 * Store reads: revision checks, current-revision ranges from memory, past-revision ranges
 * from the unflushed map or the backend.
 *
 * A past record is looked up where it can be: the key's live record if the revision is its
 * newest, then the unflushed map, then the backend. If a record has vanished meanwhile (a
 * compaction removed it while the read waited for the disk), the read fails with Compacted.
 */
import type { KeyValue } from '../../proto/gen/etcd/kv.js';
import { fail, ok, type Result } from '../errors/domain-error.js';
import { Bucket } from '../storage/backend.js';
import type { KeyIndex } from './key-index.js';
import { keyBounds } from './key-range.js';
import { decodeKeyValue } from './kv-codec.js';
import { collectAt, collectLive, fetchLimit, finishRange } from './range.js';
import { encodeRevisionKey, type Revision } from './revision.js';
import type { StoreState } from './state.js';
import type { RangeParams, RangeResult } from './types.js';

const EMPTY_RESULT: RangeResult = { kvs: [], count: 0n, more: false };

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

/** The record of `ki` at revision `rev` (must not be a tombstone), or undefined if gone. */
export async function readRecord(state: StoreState, ki: KeyIndex, rev: Revision): Promise<KeyValue | undefined> {
  if (ki.live !== undefined && ki.latest() === rev) return ki.live;
  const ev = state.unflushed.get(rev.main, rev.sub);
  if (ev !== undefined) return ev.kv;
  const value = await state.backend.get(Bucket.Key, encodeRevisionKey(rev.main, rev.sub, false));
  return value === undefined ? undefined : decodeKeyValue(value);
}

/** The error for a record that should exist but does not, read at revision `rev`. */
export function vanished(state: StoreState, rev: bigint): Result<never> {
  if (rev < state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
  throw new Error(`mvcc: record missing from the backend for a read at revision ${rev}`);
}

/** A range read at the validated revision `rev` (≤ current). */
export function rangeAt(state: StoreState, params: RangeParams, rev: bigint): Promise<Result<RangeResult>> {
  const bounds = keyBounds(params.key, params.rangeEnd);
  if (bounds.kind === 'none') return Promise.resolve(ok(EMPTY_RESULT));
  const limit = fetchLimit(params);
  if (rev === state.currentRevision) {
    const { kvs, count } = collectLive(state.index, bounds, limit, params.countOnly);
    return Promise.resolve(ok(finishRange(params, kvs, count)));
  }
  const { hits, count } = collectAt(state.index, bounds, rev, limit, params.countOnly);
  if (hits.length === 0) return Promise.resolve(ok(finishRange(params, [], count)));
  return fetchHits(state, params, rev, hits, count);
}

async function fetchHits(
  state: StoreState,
  params: RangeParams,
  rev: bigint,
  hits: ReturnType<typeof collectAt>['hits'],
  count: number,
): Promise<Result<RangeResult>> {
  const found = await Promise.all(hits.map((h) => readRecord(state, h.ki, h.rev)));
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
