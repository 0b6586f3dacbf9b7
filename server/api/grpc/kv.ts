/**
 * etcdserverpb.KV adapter: five unary calls, each straight to the KV service.
 */
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { KVService } from '../../../proto/gen/etcd/rpc.js';
import type { KvService } from '../services.js';
import type { EdgeContext } from './context.js';
import { unary } from './unary.js';

export function kvHandlers(ctx: EdgeContext, kv: KvService): UntypedServiceImplementation {
  return {
    range: unary(ctx, KVService.range, (r) => kv.range(r)),
    put: unary(ctx, KVService.put, (r) => kv.put(r)),
    deleteRange: unary(ctx, KVService.deleteRange, (r) => kv.deleteRange(r)),
    txn: unary(ctx, KVService.txn, (r) => kv.txn(r)),
    compact: unary(ctx, KVService.compact, (r) => kv.compact(r)),
  } satisfies Record<keyof typeof KVService, unknown>;
}
