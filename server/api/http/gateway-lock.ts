/**
 * The Lock routes of the JSON gateway (`<prefix>/lock/…`, v3lockpb), served by the mutex recipe
 * (api/service/lock-service.ts) on the gateway's own (auth-guarded) services:
 *
 * | path | call | answer |
 * |---|---|---|
 * | `/lock/lock` | Lock (waits until the caller holds the lock) | `{"header","key"}` |
 * | `/lock/unlock` | Unlock | `{"header"}` |
 *
 * Unary routes answer as every unary route (gateway-unary.ts); a lock whose client leaves while
 * it waits deletes its key.
 */
import * as lpb from '../../../proto/gen/etcd/lock.js';
import type { Result } from '../../errors/domain-error.js';
import { createLockService, type LockService } from '../service/lock-service.js';
import * as rq from './gateway-lock-schemas.js';
import type { UnaryRoute } from './gateway-routes.js';
import { decodeJsonText, type JsonMessageFns, type RequestCodec } from './json-decode.js';

const LOCK = '/v3lockpb.Lock/';

function route<Req, Res>(
  path: string,
  method: string,
  request: RequestCodec<Req>,
  response: JsonMessageFns<Res>,
  call: (l: LockService, req: Req, signal?: AbortSignal) => Promise<Result<Res>>,
): UnaryRoute {
  return {
    path,
    grpcMethod: `${LOCK}${method}`,
    async run(services, body, maxMessageBytes, signal) {
      const decoded = decodeJsonText(request, body, { maxMessageBytes });
      if (!decoded.ok) return { kind: 'status', status: decoded.status };
      const result = await call(createLockService(services), decoded.value, signal);
      return result.ok ? { kind: 'ok', json: response.toJSON(result.value) } : { kind: 'domain', error: result.error };
    },
  };
}

export const LOCK_ROUTES: readonly UnaryRoute[] = [
  route('/lock/lock', 'Lock', { schema: rq.LockRequest, fns: lpb.LockRequest }, lpb.LockResponse, (l, r, signal) => l.lock(r, signal)),
  route('/lock/unlock', 'Unlock', { schema: rq.UnlockRequest, fns: lpb.UnlockRequest }, lpb.UnlockResponse, (l, r) => l.unlock(r)),
];
