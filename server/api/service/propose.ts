/**
 * Proposes a request and returns its applied response with the member's full header. A
 * request that carries the bytes it was decoded from (raw-request.ts) enters the log as them.
 */
import type { InternalRequest } from '../../../proto/gen/kvstore/internal.js';
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { ok, type Result } from '../../errors/domain-error.js';
import { rawOf } from '../raw-request.js';
import type { ServiceContext } from './context.js';

export async function proposeAndFill<T extends { header?: pb.ResponseHeader | undefined }>(
  ctx: ServiceContext,
  request: NonNullable<InternalRequest['request']>,
): Promise<Result<T>> {
  const res = await ctx.member.propose(request, rawOf(request.value as object));
  if (!res.ok) return res;
  const resp = res.value.response as T;
  resp.header = ctx.member.header(resp.header?.revision ?? ctx.store.currentRevision);
  return ok(resp);
}
