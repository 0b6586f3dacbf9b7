/**
 * etcdserverpb.Watch adapter: one bidi stream ↔ one WatchSession.
 *
 * - every client message goes to `session.request` in arrival order;
 * - every response the session sends is written in order; `send` returns stream.write's
 *   result (false = transport buffer full; the message is queued, never dropped), so a
 *   hub that looks at the return value can hold back further events;
 * - the session is closed exactly once when the call ends (client cancel, transport
 *   error, malformed frame, server shutdown);
 * - a client half-close does NOT end the stream: as in etcd, events keep flowing until
 *   the client cancels;
 * - `hasleader: true` without a leader fails the stream at start with NoLeader; with it, the
 *   stream is cancelled with NoLeader once the member has had no leader for 3 election
 *   timeouts (the member's no-leader monitor);
 * - while auth is enabled, each create request is checked (read on its range) before it
 *   reaches the session; a refused one is answered `created` + `canceled` with watch id -1
 *   and etcd's reason, and the stream stays open.
 */
import type { handleBidiStreamingCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { WatchService as WatchDef, type WatchRequest, type WatchResponse } from '../../../proto/gen/etcd/rpc.js';
import type { WatchService } from '../services.js';
import { GrpcCode } from './codes.js';
import { lacksRequiredLeader, messageOf, requiresLeader, refusedOnLearner, type EdgeContext } from './context.js';
import { MalformedRequest, malformedStatus, type Incoming } from './decode-guard.js';
import { toStatus } from './error-table.js';
import { drainedOrClosed } from '../../transport/drained.js';
import { StreamCall } from './stream-call.js';
import { callerOf, gateOf } from './auth-gate.js';
import { deniedWatchCreate } from './watch-denied.js';

export function watchHandlers(ctx: EdgeContext, watch: WatchService): UntypedServiceImplementation {
  const tally = ctx.metrics.method(WatchDef.watch);
  const handler: handleBidiStreamingCall<Incoming<WatchRequest>, WatchResponse> = (call) => {
    const stream = new StreamCall<WatchResponse>(call, tally);
    if (refusedOnLearner(ctx, WatchDef.watch.path, undefined)) return stream.fail(toStatus({ kind: 'RpcNotSupportedForLearner' }));
    if (lacksRequiredLeader(ctx, call.metadata)) return stream.fail(toStatus({ kind: 'NoLeader' }));
    if (requiresLeader(call.metadata)) stream.onClose(ctx.noLeader.register(() => stream.fail(toStatus({ kind: 'NoLeader' }))));
    const drained = (): Promise<void> => (stream.open ? drainedOrClosed(call) : Promise.resolve());
    const session = watch.openWatch((resp) => stream.write(resp), { drained });
    let authChecks: Promise<void> | undefined;
    stream.onClose(() => session.close());
    call.on('data', (req: Incoming<WatchRequest>) => {
      stream.received();
      if (!stream.open) return;
      if (req instanceof MalformedRequest) return stream.fail(malformedStatus(req));
      const forward = (): void => {
        if (!stream.open) return;
        try {
          session.request(req);
        } catch (e) {
          ctx.logger.error({ err: e }, 'watch session failed on a request');
          stream.fail({ code: GrpcCode.Unknown, message: messageOf(e) });
        }
      };
      const gate = gateOf(ctx, call.metadata);
      // While auth is enabled, requests of the stream are handled in order behind the checks.
      if (gate === undefined && authChecks === undefined) return forward();
      authChecks = (authChecks ?? Promise.resolve()).then(async () => {
        const create = req.requestUnion?.$case === 'createRequest' ? req.requestUnion.value : undefined;
        const denied = create && gate ? await gate.checkWatch(create, callerOf(call)) : undefined;
        if (denied === undefined) return forward();
        if (stream.open) stream.write(deniedWatchCreate(ctx.auth!.header(), denied));
      });
    });
  };
  return { watch: handler } satisfies Record<keyof typeof WatchDef, unknown>;
}
