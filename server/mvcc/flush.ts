/**
 * MvccStore.flush: every change ended since the last flush, the consistent index, a changed
 * scheduledCompactRev and the caller's extra ops, as ONE unsynced backend batch (the WAL is
 * the durable log; a crash replays the entries after the persisted consistent index).
 * Flushed changes stay readable from the unflushed map until the write resolves; if it
 * fails they are queued again for the next flush and the error is returned. Once written, the
 * batch's `key`-bucket records go into the record ledger in the same io task.
 */
import { Event_EventType, type Event } from '../../proto/gen/etcd/kv.js';
import { Bucket, type BackendOp } from '../storage/backend.js';
import { encodeKeyValue, encodeTombstone } from './kv-codec.js';
import { noteKeyOps } from './ledger-ops.js';
import { consistentIndexOp, scheduledCompactOp } from './meta.js';
import { encodeRevisionKey } from './revision.js';
import type { StoreState } from './state.js';
import type { FlushBatch } from './unflushed.js';

/** The backend record of the change `e` at (main, sub): [key, value]. */
export function recordOf(main: bigint, sub: number, e: Event): readonly [Buffer, Buffer] {
  const kv = e.kv!;
  return e.type === Event_EventType.DELETE
    ? [encodeRevisionKey(main, sub, true), encodeTombstone(kv.key)]
    : [encodeRevisionKey(main, sub, false), encodeKeyValue(kv)];
}

function recordOps(batch: FlushBatch, ops: BackendOp[]): void {
  for (const [main, group] of batch) {
    for (let sub = 0; sub < group.length; sub++) {
      const e = group[sub];
      if (e === undefined) continue;
      const [key, value] = recordOf(main, sub, e);
      ops.push({ type: 'put', bucket: Bucket.Key, key, value });
    }
  }
}

export function flush(state: StoreState, consistentIndex: bigint, extra: readonly BackendOp[] | undefined, sync = false): Promise<void> {
  const batch = state.unflushed.takePending();
  const ops: BackendOp[] = [];
  recordOps(batch, ops);
  ops.push(consistentIndexOp(consistentIndex));
  const scheduled = state.compactRevision;
  if (scheduled !== state.persistedScheduledCompact) ops.push(scheduledCompactOp(scheduled));
  if (extra !== undefined) for (const op of extra) ops.push(op);
  state.consistentIndex = consistentIndex;
  return state.io.run(async () => {
    try {
      await state.backend.write(ops, { sync });
    } catch (cause) {
      state.unflushed.requeue(batch);
      throw new Error('mvcc: flush failed', { cause });
    }
    noteKeyOps(state.ledger, ops);
    state.unflushed.release(batch);
    // Everything below the lowest change still held is in the backend (a failed earlier batch
    // may have been queued again below this one's revisions).
    if (batch.length > 0) state.feed?.released((state.unflushed.lowest() ?? batch[batch.length - 1][0] + 1n) - 1n);
    if (scheduled > state.persistedScheduledCompact) state.persistedScheduledCompact = scheduled;
  });
}
