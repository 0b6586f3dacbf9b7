/**
 * KV RPCs. Linearizable reads first pass a read barrier (the leader confirms its commit
 * index; this member waits until it has applied that far), then read the local store;
 * serializable reads read it directly. Writes are checked, then proposed, and answered
 * with the applied response and a full header.
 */
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { checkDeleteRange, checkPut, checkRange, checkTxn } from '../../apply/validate.js';
import { toRangeParams } from '../../apply/range-params.js';
import { txnHasPut } from '../../apply/txn.js';
import { err, fail, ok, type Result } from '../../errors/domain-error.js';
import type { KvService } from '../services.js';
import type { ServiceContext } from './context.js';
import { proposeAndFill } from './propose.js';
import { authOf } from '../../auth/request-auth.js';
import { quotaExceeded, raiseNoSpace, withinQuota } from './quota.js';

export function createKvService(ctx: ServiceContext): KvService {
  const { member, store } = ctx;
  return {
    async range(req): Promise<Result<pb.RangeResponse>> {
      const e = checkRange(req);
      if (e) return fail(e);
      ctx.counters.onRange?.();
      if (!req.serializable) {
        const barrier = await member.readBarrier();
        if (!barrier.ok) return barrier;
      }
      const res = await store.range(toRangeParams(req));
      if (!res.ok) return res;
      // An auth change applied while this read waited: the caller's rights may be gone (etcd's doSerialize).
      const caller = authOf(req);
      if (caller !== undefined && caller.info.revision !== caller.authRevision()) return err('AuthOldRevision');
      return ok({ header: member.header(store.currentRevision), kvs: res.value.kvs, more: res.value.more, count: res.value.count });
    },

    put(req): Promise<Result<pb.PutResponse>> {
      // Not async: the common case (valid, within quota) goes to the log without an extra turn.
      const e = checkPut(req);
      if (e) return Promise.resolve(fail(e));
      if (!withinQuota(ctx, req.key.length + req.value.length)) return raiseNoSpace(ctx).then(() => err('NoSpace'));
      ctx.counters.onPut?.();
      return proposeAndFill<pb.PutResponse>(ctx, { $case: 'put', value: req });
    },

    async deleteRange(req): Promise<Result<pb.DeleteRangeResponse>> {
      const e = checkDeleteRange(req);
      if (e) return fail(e);
      ctx.counters.onDelete?.();
      return proposeAndFill<pb.DeleteRangeResponse>(ctx, { $case: 'deleteRange', value: req });
    },

    async txn(req): Promise<Result<pb.TxnResponse>> {
      const e = checkTxn(req, ctx.maxTxnOps);
      if (e) return fail(e);
      if (txnHasPut(req) && (await quotaExceeded(ctx, 0))) return err('NoSpace');
      ctx.counters.onTxn?.();
      return proposeAndFill<pb.TxnResponse>(ctx, { $case: 'txn', value: req });
    },

    async compact(req): Promise<Result<pb.CompactionResponse>> {
      const res = await member.propose({ $case: 'compaction', value: req });
      if (!res.ok) return res;
      if (req.physical && res.value.done) await res.value.done;
      return ok({ header: member.header(store.currentRevision) });
    },
  };
}
