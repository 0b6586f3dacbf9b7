/**
 * MvccStore.hashKV and MvccStore.hash: CRC-32C (Castagnoli, as etcd) over backend
 * records, comparable between members that applied the same log whatever their flush timing.
 *
 * hashKV(rev): the bucket name "key", then key and value of every MVCC record with
 * main ≤ rev in revision order, including changes not flushed yet (marshalled exactly as a
 * flush would write them). Records with main ≤ compact revision count only if the index kept
 * them, so a compaction still deleting in the background does not change the result.
 * Errors: Compacted when 0 < rev ≤ compact revision (as etcd), FutureRev above current.
 * hash(): the same over the `key` bucket at the current revision, then every other bucket
 * except `meta` (bucket name, then each key and value), as the backend holds them.
 */
import { fail, ok, type Result } from '../errors/domain-error.js';
import { Bucket, type ReadView } from '../storage/backend.js';
import { Crc32c } from '../storage/crc32c.js';
import { recordOf } from './flush.js';
import { isTombstoneKey, isTombstoneKeyAt, mainOfKeyAt, revisionBound, subOfKeyAt } from './revision.js';
import type { RevisionSet } from './revision-set.js';
import type { StoreState } from './state.js';
import type { HashKVResult } from './types.js';
import type { FlushBatch } from './unflushed.js';

interface Capture {
  readonly view: ReadView;
  readonly groups: FlushBatch;
  readonly compactRevision: bigint;
  /** compactRevision as a number (revisions stay below 2^53). */
  readonly compactMain: number;
  /** The records ≤ compactRevision the index kept (undefined: never compacted). */
  readonly keep: RevisionSet | undefined;
}

/** A backend view plus the unflushed changes it lacks, taken with no flush in flight. */
function capture(state: StoreState, upTo: bigint): Promise<Capture> {
  return state.io.run(async () => {
    const view = await state.backend.snapshot();
    const compactRevision = state.compactRevision;
    return {
      view,
      groups: state.unflushed.between(0n, upTo),
      compactRevision,
      compactMain: Number(compactRevision),
      keep: compactRevision > 0n ? state.index.revisionsAtOrBelow(compactRevision) : undefined,
    };
  });
}

function counts(c: Capture, main: number, sub: number, tombstone: boolean): boolean {
  if (c.keep === undefined || main > c.compactMain) return true;
  return !tombstone && c.keep.has(main, sub);
}

/** Folds the `key` bucket's name and its records counted at `rev` into `h`. */
async function hashKeyBucket(c: Capture, rev: bigint, h: Crc32c): Promise<void> {
  h.update(Buffer.from(Bucket.Key));
  for await (const { entries, keyStart } of c.view.batches(Bucket.Key, { lt: revisionBound(rev + 1n) })) {
    for (const [key, value] of entries) {
      if (!counts(c, mainOfKeyAt(key, keyStart), subOfKeyAt(key, keyStart), isTombstoneKeyAt(key, keyStart))) continue;
      h.update(key, keyStart);
      if (value !== undefined) h.update(value);
    }
  }
  for (const [main, group] of c.groups) {
    for (let sub = 0; sub < group.length; sub++) {
      const e = group[sub];
      if (e === undefined) continue;
      const [key, value] = recordOf(main, sub, e);
      if (!counts(c, Number(main), sub, isTombstoneKey(key))) continue;
      h.update(key).update(value);
    }
  }
}

export async function hashKV(state: StoreState, revision: bigint): Promise<Result<HashKVResult>> {
  for (;;) {
    if (revision > 0n && revision <= state.compactRevision) return fail({ kind: 'Compacted', compactRevision: state.compactRevision });
    if (revision > state.currentRevision) return fail({ kind: 'FutureRev', currentRevision: state.currentRevision });
    const rev = revision > 0n ? revision : state.currentRevision;
    const c = await capture(state, rev);
    const h = new Crc32c();
    try {
      await hashKeyBucket(c, rev, h);
    } finally {
      await c.view.close();
    }
    // A compaction that started meanwhile may have changed what counts: take it again.
    if (state.compactRevision === c.compactRevision) return ok({ hash: h.digest(), compactRevision: c.compactRevision, revision: rev });
  }
}

export async function hash(state: StoreState): Promise<number> {
  for (;;) {
    const rev = state.currentRevision;
    const c = await capture(state, rev);
    const h = new Crc32c();
    try {
      await hashKeyBucket(c, rev, h);
      for (const bucket of Object.values(Bucket)) {
        if (bucket === Bucket.Key || bucket === Bucket.Meta) continue;
        h.update(Buffer.from(bucket));
        for await (const [key, value] of c.view.iterate(bucket)) h.update(key).update(value);
      }
    } finally {
      await c.view.close();
    }
    if (state.compactRevision === c.compactRevision) return h.digest();
  }
}
