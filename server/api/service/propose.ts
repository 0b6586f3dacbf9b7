/**
 * Proposes a request and returns its applied response with the member's full header. A
 * request that carries the bytes it was decoded from (raw-request.ts) enters the log as them.
 *
 * While auth is enabled the caller's identity (auth/request-auth.ts) goes into the proposal
 * header and the apply step checks it again. A request refused there with AuthOldRevision (an
 * auth change committed between the edge check and the entry) is answered so, not proposed
 * again: as etcd 3.4.23, the client refreshes its token and retries (clientv3 does).
 */
import type { InternalRequest } from '../../../proto/gen/kvstore/internal.js';
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { authOf, type RequestAuth } from '../../auth/request-auth.js';
import { ok, type Result } from '../../errors/domain-error.js';
import { rawOf } from '../raw-request.js';
import type { ServiceContext } from './context.js';

/** `auth`: the caller, when the proposed value is not the message the edge checked (default: the one it carries). */
export async function proposeAndFill<T extends { header?: pb.ResponseHeader | undefined }>(
  ctx: ServiceContext,
  request: NonNullable<InternalRequest['request']>,
  auth: RequestAuth | undefined = authOf(request.value as object),
): Promise<Result<T>> {
  const res = await ctx.member.propose(request, rawOf(request.value as object), auth?.info);
  if (!res.ok) return res;
  const resp = res.value.response as T;
  resp.header = ctx.member.header(resp.header?.revision ?? ctx.store.currentRevision);
  return ok(resp);
}
