/**
 * v3electionpb.Election adapter: Campaign, Proclaim, Leader, Resign (unary) and Observe (a
 * server stream), each run by the election recipe (api/service/election-service.ts) — the
 * same one the JSON gateway's routes run — on the member's services as the call's caller sees
 * them (auth-gate.ts `servicesOfCaller`), as etcd's v3election server calls its client with
 * the caller's context.
 *
 * - a Campaign that waits resigns (its key is deleted) when the client cancels the call;
 * - Observe: the current leader, then each change, until the client cancels; when a call of
 *   the recipe fails the stream ends with OK, as etcd's (its observation channel closes);
 *   `hasleader: true` is checked at the start and watched by the no-leader monitor as every
 *   stream's.
 */
import type { handleServerStreamingCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { ElectionService as ElectionDef, type LeaderRequest, type LeaderResponse } from '../../../proto/gen/etcd/election.js';
import type { Services } from '../services.js';
import { createElectionService, type ElectionService } from '../service/election-service.js';
import { servicesOfCaller } from './auth-gate.js';
import { callSignal } from './call-signal.js';
import { GrpcCode } from './codes.js';
import { lacksRequiredLeader, messageOf, refusedOnLearner, requiresLeader, type EdgeContext } from './context.js';
import { MalformedRequest, malformedStatus, type Incoming } from './decode-guard.js';
import { toStatus } from './error-table.js';
import { StreamCall } from './stream-call.js';
import { unaryWithCall } from './unary.js';

type CallOf = Parameters<typeof servicesOfCaller>[2];

export function electionHandlers(ctx: EdgeContext, services: Services): UntypedServiceImplementation {
  const election = (call: CallOf): ElectionService => createElectionService(servicesOfCaller(ctx, services, call));
  return {
    campaign: unaryWithCall(ctx, ElectionDef.campaign, (r, call) => election(call).campaign(r, callSignal(call))),
    proclaim: unaryWithCall(ctx, ElectionDef.proclaim, (r, call) => election(call).proclaim(r)),
    leader: unaryWithCall(ctx, ElectionDef.leader, (r, call) => election(call).leader(r)),
    observe: observeHandler(ctx, election),
    resign: unaryWithCall(ctx, ElectionDef.resign, (r, call) => election(call).resign(r)),
  } satisfies Record<keyof typeof ElectionDef, unknown>;
}

function observeHandler(
  ctx: EdgeContext,
  election: (call: CallOf) => ElectionService,
): handleServerStreamingCall<Incoming<LeaderRequest>, LeaderResponse> {
  const def = ElectionDef.observe;
  const tally = ctx.metrics.method(def);
  return (call) => {
    const stream = new StreamCall<LeaderResponse>(call, tally);
    stream.received();
    const req = call.request;
    if (req instanceof MalformedRequest) return stream.fail(malformedStatus(req));
    if (!ctx.capable(def.path)) return stream.fail(toStatus({ kind: 'NotCapable' }));
    if (refusedOnLearner(ctx, def.path, req)) return stream.fail(toStatus({ kind: 'RpcNotSupportedForLearner' }));
    if (lacksRequiredLeader(ctx, call.metadata)) return stream.fail(toStatus({ kind: 'NoLeader' }));
    if (requiresLeader(call.metadata)) stream.onClose(ctx.noLeader.register(() => stream.fail(toStatus({ kind: 'NoLeader' }))));
    const gone = new AbortController();
    stream.onClose(() => gone.abort());
    let observing: Promise<unknown>;
    try {
      observing = election(call).observe(req, (resp) => stream.write(resp), gone.signal);
    } catch (e) {
      observing = Promise.reject(e);
    }
    observing.then(
      () => stream.end(),
      (e: unknown) => {
        ctx.logger.error({ err: e, method: def.path }, 'election observe failed');
        stream.fail({ code: GrpcCode.Unknown, message: messageOf(e) });
      },
    );
  };
}
