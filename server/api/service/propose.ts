/**
 * Proposes a request and returns its applied response with the member's full header. A
 * request that carries the bytes it was decoded from (raw-request.ts) enters the log as them.
 *
 * While auth is enabled the caller's identity (auth/request-auth.ts) goes into the proposal
 * header and the apply step checks it again. A Put, DeleteRange or Txn refused at apply with
 * AuthOldRevision (an auth change committed between the edge check and the entry) is proposed
 * again with the caller's token resolved anew, as etcd's raftRequest loop does; it stops when
 * the fresh identity is no newer (a JWT token carries its own revision: the client must
 * authenticate again) or after MAX_AUTH_RETRIES.
 */
import type { InternalRequest } from '../../../proto/gen/kvstore/internal.js';
import type * as pb from '../../../proto/gen/etcd/rpc.js';
import { authOf, type RequestAuth } from '../../auth/request-auth.js';
import type { AuthInfo } from '../../auth/auth-store.js';
import { fail, ok, type Result } from '../../errors/domain-error.js';
import type { Applied } from '../../apply/applier.js';
import { rawOf } from '../raw-request.js';
import type { ServiceContext } from './context.js';

type Request = NonNullable<InternalRequest['request']>;

const RETRIED: ReadonlySet<Request['$case']> = new Set(['put', 'deleteRange', 'txn']);
const MAX_AUTH_RETRIES = 8;

/** `auth`: the caller, when the proposed value is not the message the edge checked (default: the one it carries). */
export async function proposeAndFill<T extends { header?: pb.ResponseHeader | undefined }>(
  ctx: ServiceContext,
  request: Request,
  auth: RequestAuth | undefined = authOf(request.value as object),
): Promise<Result<T>> {
  const raw = rawOf(request.value as object);
  let res = await ctx.member.propose(request, raw, auth?.info);
  if (auth !== undefined && !res.ok && res.error.kind === 'AuthOldRevision' && RETRIED.has(request.$case)) {
    let info: AuthInfo = auth.info;
    for (let round = 0; round < MAX_AUTH_RETRIES && !res.ok && res.error.kind === 'AuthOldRevision'; round += 1) {
      const fresh = await auth.refresh();
      if (!fresh.ok) return fail(fresh.error);
      if (fresh.info === undefined || fresh.info.revision <= info.revision) break;
      info = fresh.info;
      res = await ctx.member.propose(request, raw, info);
    }
  }
  return fill<T>(ctx, res);
}

function fill<T extends { header?: pb.ResponseHeader | undefined }>(ctx: ServiceContext, res: Result<Applied>): Result<T> {
  if (!res.ok) return res;
  const resp = res.value.response as T;
  resp.header = ctx.member.header(resp.header?.revision ?? ctx.store.currentRevision);
  return ok(resp);
}
