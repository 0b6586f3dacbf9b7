/**
 * The requests etcd's election recipe (clientv3/concurrency) makes, as plain KV and Watch
 * calls on the member's own services, and the two waits it is built from.
 *
 * Contract:
 * - `watchUntil` opens one watcher on the key (or the range) from `startRevision` and hands each
 *   response with events to `onEvents` until it returns true (→ ok), the watcher is canceled
 *   (→ the cancel's error: Compacted, or the reason as it comes) or `signal` aborts
 *   (→ `Canceled`); the watcher is closed in every case;
 * - `waitDeletes` is the recipe's `waitDeletes`: until no key of the prefix has a create revision
 *   at or below `maxCreateRevision`, wait for the deletion of the newest such key; its answer is
 *   the header of the last read (the one that found no such key), as the recipe's;
 * - `sessionLease` is the recipe's session: the caller's lease, or (lease 0) a new lease of the
 *   session's default 60 s, never kept alive (etcd's servers orphan their sessions).
 *
 * Shared by the Election (election-service.ts) and Lock (lock-service.ts) recipes.
 */
import { Event_EventType } from '../../../proto/gen/etcd/kv.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { fail, ok, type DomainError, type Result } from '../../errors/domain-error.js';
import type { KvService, LeaseService, WatchService } from '../services.js';

/** Go's `ctx.Err()` once the caller is gone (its answer is never read). */
export const CANCELED: DomainError = { kind: 'Internal', message: 'context canceled' };

/** Whether the caller is gone (a function, so that each look reads the signal anew). */
export const aborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

/** clientv3's `GetPrefixRangeEnd`: the first key after every key starting with `prefix`. */
export function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]!++;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

export const rangeRequest = (p: Partial<pb.RangeRequest>): pb.RangeRequest => ({ ...pb.RangeRequest.fromJSON({}), ...p });

/** The first (`ASCEND`) or last (`DESCEND`) key of `prefix` by create revision. */
export function byCreate(prefix: Buffer, order: pb.RangeRequest_SortOrder, maxCreateRevision = 0n): pb.RangeRequest {
  return rangeRequest({ key: prefix, rangeEnd: prefixEnd(prefix), sortTarget: pb.RangeRequest_SortTarget.CREATE, sortOrder: order, limit: 1n, maxCreateRevision });
}

/** `create_revision(key) == rev`. */
export function createdAt(key: Buffer, rev: bigint): pb.Compare {
  return {
    ...pb.Compare.fromJSON({}),
    result: pb.Compare_CompareResult.EQUAL,
    target: pb.Compare_CompareTarget.CREATE,
    key,
    targetUnion: { $case: 'createRevision', value: rev },
  };
}

export function putOp(key: Buffer, value: Buffer, lease: bigint): pb.RequestOp {
  return { request: { $case: 'requestPut', value: { ...pb.PutRequest.fromJSON({}), key, value, lease } } };
}

export function getOp(key: Buffer): pb.RequestOp {
  return { request: { $case: 'requestRange', value: rangeRequest({ key }) } };
}

export function deleteOp(key: Buffer): pb.RequestOp {
  return { request: { $case: 'requestDeleteRange', value: { ...pb.DeleteRangeRequest.fromJSON({}), key } } };
}

export interface WatchTarget {
  readonly key: Buffer;
  readonly rangeEnd?: Buffer;
  readonly startRevision: bigint;
}

export function watchUntil(
  watch: WatchService,
  target: WatchTarget,
  onEvents: (resp: pb.WatchResponse) => boolean,
  signal?: AbortSignal,
): Promise<Result<void>> {
  return new Promise((resolve) => {
    let over = false;
    const finish = (r: Result<void>): void => {
      if (over) return;
      over = true;
      signal?.removeEventListener('abort', onAbort);
      queueMicrotask(() => session.close());
      resolve(r);
    };
    const onAbort = (): void => finish(fail(CANCELED));
    const session = watch.openWatch((resp) => {
      if (over) return;
      if (resp.canceled) {
        const cause: DomainError =
          resp.compactRevision > 0n ? { kind: 'Compacted', compactRevision: resp.compactRevision } : { kind: 'Internal', message: resp.cancelReason };
        finish(fail({ kind: 'ViaClient', cause }));
      } else if (resp.events.length > 0 && onEvents(resp)) finish(ok(undefined));
    });
    if (signal?.aborted === true) return finish(fail(CANCELED));
    signal?.addEventListener('abort', onAbort, { once: true });
    const create: pb.WatchCreateRequest = {
      ...pb.WatchCreateRequest.fromJSON({}),
      key: target.key,
      rangeEnd: target.rangeEnd ?? Buffer.alloc(0),
      startRevision: target.startRevision,
    };
    session.request({ requestUnion: { $case: 'createRequest', value: create } });
  });
}

const hasDelete = (resp: pb.WatchResponse): boolean => resp.events.some((e) => e.type === Event_EventType.DELETE);

export async function waitDeletes(
  kv: KvService,
  watch: WatchService,
  prefix: Buffer,
  maxCreateRevision: bigint,
  signal?: AbortSignal,
): Promise<Result<pb.ResponseHeader | undefined>> {
  for (;;) {
    if (signal?.aborted === true) return fail(CANCELED);
    const r = await kv.range(byCreate(prefix, pb.RangeRequest_SortOrder.DESCEND, maxCreateRevision));
    if (!r.ok) return fail({ kind: 'ViaClient', cause: r.error });
    const last = r.value.kvs[0];
    if (last === undefined) return ok(r.value.header);
    const waited = await watchUntil(watch, { key: last.key, startRevision: r.value.header?.revision ?? 0n }, hasDelete, signal);
    if (!waited.ok) return waited;
  }
}

/** The recipe's default session TTL, in seconds. */
const SESSION_TTL = 60n;

/** The session's lease: `id`, or a new one of 60 s when `id` is 0 (an error travels as `ViaClient`). */
export async function sessionLease(lease: LeaseService, id: bigint): Promise<Result<bigint>> {
  if (id !== 0n) return ok(id);
  const g = await lease.leaseGrant({ TTL: SESSION_TTL, ID: 0n });
  return g.ok ? ok(g.value.ID) : fail({ kind: 'ViaClient', cause: g.error });
}
