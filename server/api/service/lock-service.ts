/**
 * The Lock service (v3lockpb), as etcd 3.4's v3lock server: etcd's mutex recipe
 * (clientv3/concurrency) run on the member's own KV, Lease and Watch services — given as the
 * caller sees them (api/caller-services.ts), so the caller's permissions apply to each call.
 *
 * Lock: in the caller's session (its lease, or a new lease of 60 s never kept alive), put
 * `<name>/<lease in hex>` with an empty value under the lease if that key does not exist yet
 * (else take it over at its create revision), reading the first key of `<name>/` by create
 * revision in the same txn. The lock is held once no key of the prefix has a lower create
 * revision: at once when the txn's read found this key (or nothing), else after waiting for
 * every older key to be deleted. The answer is `{header, key}`: the txn's header when held at
 * once, else the header of the last read of the wait. A wait that fails — its caller gone
 * (`signal`), a compaction — deletes the key again, as the recipe does; a caller gone before
 * the txn gets nothing written.
 *
 * Unlock: delete `key` (no check of who holds it), answer `{header}`.
 *
 * An error of a call the recipe made travels as `ViaClient` (code Unknown with the call's
 * message, as etcd's in-process client turns statuses into plain errors).
 */
import type * as lpb from '../../../proto/gen/etcd/lock.js';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { fail, ok, type Result } from '../../errors/domain-error.js';
import type { KvService, LeaseService, WatchService } from '../services.js';
import { aborted, byCreate, CANCELED, createdAt, getOp, putOp, sessionLease, waitDeletes } from './election-ops.js';

export interface LockService {
  /** Resolves once the caller holds the lock, or with the error that ended the attempt. */
  lock(req: lpb.LockRequest, signal?: AbortSignal): Promise<Result<lpb.LockResponse>>;
  unlock(req: lpb.UnlockRequest): Promise<Result<lpb.UnlockResponse>>;
}

export interface LockDeps {
  readonly kv: KvService;
  readonly lease: LeaseService;
  readonly watch: WatchService;
}

const firstCreated = (prefix: Buffer): pb.RequestOp => ({
  request: { $case: 'requestRange', value: byCreate(prefix, pb.RangeRequest_SortOrder.ASCEND) },
});

const rangeOf = (r: pb.ResponseOp | undefined): pb.RangeResponse | undefined =>
  r?.response?.$case === 'responseRange' ? r.response.value : undefined;

export function createLockService(d: LockDeps): LockService {
  const { kv, lease, watch } = d;
  const deleteKey = (key: Buffer): Promise<Result<pb.DeleteRangeResponse>> => kv.deleteRange({ ...pb.DeleteRangeRequest.fromJSON({}), key });

  return {
    async lock(req, signal) {
      // A caller gone before the recipe wrote anything gets nothing written (Go's calls fail on a done context).
      if (aborted(signal)) return fail(CANCELED);
      const leaseId = await sessionLease(lease, req.lease);
      if (!leaseId.ok) return leaseId;
      if (aborted(signal)) return fail(CANCELED);
      const prefix = Buffer.concat([req.name, Buffer.from('/')]);
      const key = Buffer.concat([prefix, Buffer.from(leaseId.value.toString(16))]);
      const t = await kv.txn({
        compare: [createdAt(key, 0n)],
        success: [putOp(key, Buffer.alloc(0), leaseId.value), firstCreated(prefix)],
        failure: [getOp(key), firstCreated(prefix)],
      });
      if (!t.ok) return fail({ kind: 'ViaClient', cause: t.error });
      const myRev = t.value.succeeded ? (t.value.header?.revision ?? 0n) : (rangeOf(t.value.responses[0])?.kvs[0]?.createRevision ?? 0n);
      const owner = rangeOf(t.value.responses[1])?.kvs[0];
      if (owner === undefined || owner.createRevision === myRev) return ok({ header: t.value.header, key });
      const waited = await waitDeletes(kv, watch, prefix, myRev - 1n, signal);
      if (!waited.ok) {
        await deleteKey(key);
        return waited;
      }
      return ok({ header: waited.value, key });
    },

    async unlock(req) {
      const r = await deleteKey(req.key);
      return r.ok ? ok({ header: r.value.header }) : fail({ kind: 'ViaClient', cause: r.error });
    },
  };
}
