/**
 * etcdserverpb.Lease adapter: four unary calls and the LeaseKeepAlive bidi stream.
 *
 * Keep-alive stream contract (as etcd's leaseKeepAlive loop):
 * - requests are handled one at a time in arrival order (the stream is paused while one is
 *   in flight), so replies come back in request order;
 * - a reply is written before the next request is read; when the transport buffer is
 *   full the loop waits for it to drain (back-pressure reaches the client);
 * - a domain error ends the stream with its status (the service answers unknown leases
 *   with TTL 0, which is not an error);
 * - client half-close ends the stream with OK once the in-flight request is answered;
 * - `hasleader: true` without a leader fails the stream at start with NoLeader; with it, the
 *   stream is cancelled with NoLeader once the member has had no leader for 3 election
 *   timeouts (the member's no-leader monitor).
 */
import type { handleBidiStreamingCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  LeaseService as LeaseDef,
  type LeaseKeepAliveRequest,
  type LeaseKeepAliveResponse,
} from '../../../proto/gen/etcd/rpc.js';
import type { LeaseService } from '../services.js';
import { GrpcCode } from './codes.js';
import { lacksRequiredLeader, messageOf, requiresLeader, refusedOnLearner, type EdgeContext } from './context.js';
import { MalformedRequest, malformedStatus, type Incoming } from './decode-guard.js';
import { toStatus } from './error-table.js';
import { StreamCall } from './stream-call.js';
import { unary } from './unary.js';

export function leaseHandlers(ctx: EdgeContext, lease: LeaseService): UntypedServiceImplementation {
  return {
    leaseGrant: unary(ctx, LeaseDef.leaseGrant, (r) => lease.leaseGrant(r)),
    leaseRevoke: unary(ctx, LeaseDef.leaseRevoke, (r) => lease.leaseRevoke(r)),
    leaseKeepAlive: keepAliveHandler(ctx, lease),
    leaseTimeToLive: unary(ctx, LeaseDef.leaseTimeToLive, (r) => lease.leaseTimeToLive(r)),
    leaseLeases: unary(ctx, LeaseDef.leaseLeases, (r) => lease.leaseLeases(r)),
  } satisfies Record<keyof typeof LeaseDef, unknown>;
}

function keepAliveHandler(
  ctx: EdgeContext,
  lease: LeaseService,
): handleBidiStreamingCall<Incoming<LeaseKeepAliveRequest>, LeaseKeepAliveResponse> {
  const tally = ctx.metrics.method(LeaseDef.leaseKeepAlive);
  return (call) => {
    const stream = new StreamCall<LeaseKeepAliveResponse>(call, tally);
    if (refusedOnLearner(ctx, LeaseDef.leaseKeepAlive.path, undefined)) return stream.fail(toStatus({ kind: 'RpcNotSupportedForLearner' }));
    if (lacksRequiredLeader(ctx, call.metadata)) return stream.fail(toStatus({ kind: 'NoLeader' }));
    if (requiresLeader(call.metadata)) stream.onClose(ctx.noLeader.register(() => stream.fail(toStatus({ kind: 'NoLeader' }))));
    let busy = false;
    let clientDone = false;

    const answer = async (req: LeaseKeepAliveRequest): Promise<void> => {
      const r = await lease.keepAlive(req);
      if (!stream.open) return;
      if (!r.ok) return stream.fail(toStatus(r.error));
      if (!stream.write(r.value)) await stream.drained();
    };
    const next = (): void => {
      busy = false;
      if (!stream.open) return;
      if (clientDone) stream.end();
      else call.resume();
    };

    call.on('data', (req: Incoming<LeaseKeepAliveRequest>) => {
      stream.received();
      if (!stream.open) return;
      if (req instanceof MalformedRequest) return stream.fail(malformedStatus(req));
      busy = true;
      call.pause();
      answer(req).then(next, (e: unknown) => {
        ctx.logger.error({ err: e }, 'lease keep-alive failed');
        stream.fail({ code: GrpcCode.Unknown, message: messageOf(e) });
      });
    });
    call.on('end', () => {
      clientDone = true;
      if (!busy) stream.end();
    });
  };
}
