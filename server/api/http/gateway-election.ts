/**
 * The Election routes of the JSON gateway (`<prefix>/election/…`, v3electionpb), served by the
 * election recipe (api/service/election-service.ts) on the gateway's own (auth-guarded) services:
 *
 * | path | call | answer |
 * |---|---|---|
 * | `/election/campaign` | Campaign (waits until the candidate leads) | `{"header","leader":{"name","key","rev","lease"}}` |
 * | `/election/proclaim` | Proclaim | `{"header"}` |
 * | `/election/leader` | Leader | `{"header","kv"}` |
 * | `/election/resign` | Resign | `{"header"}` |
 * | `/election/observe` | Observe, server stream | `{"result":{"header","kv"}}\n` per change |
 *
 * Unary routes answer as every unary route (gateway-unary.ts); a campaign whose client leaves
 * while it waits resigns. Observe ends when its client leaves (or quietly, as etcd, when a call
 * of the recipe fails).
 */
import type { Middleware } from 'koa';
import * as epb from '../../../proto/gen/etcd/election.js';
import type { Services } from '../services.js';
import { createElectionService, type ElectionService } from '../service/election-service.js';
import { clientGone } from './client-gone.js';
import type { GatewayDeps } from './gateway-deps.js';
import * as rq from './gateway-election-schemas.js';
import type { UnaryRoute } from './gateway-routes.js';
import { readGatewayBody, sendGatewayError } from './gateway-unary.js';
import { decodeJsonText, type JsonMessageFns, type RequestCodec } from './json-decode.js';
import { sendMethodNotAllowed } from './plain-http-error.js';
import { createStreamWriter } from './stream-writer.js';
import type { Result } from '../../errors/domain-error.js';

const ELECTION = '/v3electionpb.Election/';

const election = (s: Services): ElectionService => createElectionService(s);

function route<Req, Res>(
  path: string,
  method: string,
  request: RequestCodec<Req>,
  response: JsonMessageFns<Res>,
  call: (e: ElectionService, req: Req, signal?: AbortSignal) => Promise<Result<Res>>,
): UnaryRoute {
  return {
    path,
    grpcMethod: `${ELECTION}${method}`,
    async run(services, body, maxMessageBytes, signal) {
      const decoded = decodeJsonText(request, body, { maxMessageBytes });
      if (!decoded.ok) return { kind: 'status', status: decoded.status };
      const result = await call(election(services), decoded.value, signal);
      return result.ok ? { kind: 'ok', json: response.toJSON(result.value) } : { kind: 'domain', error: result.error };
    },
  };
}

export const ELECTION_ROUTES: readonly UnaryRoute[] = [
  route('/election/campaign', 'Campaign', { schema: rq.CampaignRequest, fns: epb.CampaignRequest }, epb.CampaignResponse, (e, r, signal) =>
    e.campaign(r, signal),
  ),
  route('/election/proclaim', 'Proclaim', { schema: rq.ProclaimRequest, fns: epb.ProclaimRequest }, epb.ProclaimResponse, (e, r) => e.proclaim(r)),
  route('/election/leader', 'Leader', { schema: rq.LeaderRequest, fns: epb.LeaderRequest }, epb.LeaderResponse, (e, r) => e.leader(r)),
  route('/election/resign', 'Resign', { schema: rq.ResignRequest, fns: epb.ResignRequest }, epb.ResignResponse, (e, r) => e.resign(r)),
];

/** `POST <prefix>/election/observe`: one LeaderRequest, then a LeaderResponse line per change. */
export function observeHandler(deps: GatewayDeps): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') return sendMethodNotAllowed(ctx);
    const gone = clientGone(ctx.req, ctx.res);
    const text = await readGatewayBody(ctx, deps.maxBodyBytes);
    if (text === undefined) return;
    const decoded = decodeJsonText({ schema: rq.LeaderRequest, fns: epb.LeaderRequest }, text, { maxMessageBytes: deps.maxMessageBytes });
    if (!decoded.ok) return sendGatewayError(ctx, decoded.status);
    ctx.respond = false;
    const writer = createStreamWriter(ctx.res);
    await election(deps.services).observe(decoded.value, (resp) => writer.result(epb.LeaderResponse.toJSON(resp)), gone.signal);
    writer.end();
  };
}
