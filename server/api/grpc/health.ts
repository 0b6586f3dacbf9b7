/**
 * grpc.health.v1.Health: the overall server (service name "") is SERVING; any other
 * service name is unknown — Check answers NotFound "unknown service" (grpc-go's health
 * server), Watch sends SERVICE_UNKNOWN. Watch sends the current status once and stays
 * open until the client cancels.
 */
import type { handleServerStreamingCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  HealthService,
  HealthCheckResponse_ServingStatus as ServingStatus,
  type HealthCheckRequest,
  type HealthCheckResponse,
} from '../../../proto/gen/etcd/health.js';
import { GrpcCode } from './codes.js';
import type { EdgeContext } from './context.js';
import { MalformedRequest, malformedStatus, type Incoming } from './decode-guard.js';
import { StreamCall } from './stream-call.js';
import { unaryReply } from './unary.js';

const SERVED = '';

export function healthHandlers(ctx: EdgeContext): UntypedServiceImplementation {
  const watchTally = ctx.metrics.method(HealthService.watch);
  const watch: handleServerStreamingCall<Incoming<HealthCheckRequest>, HealthCheckResponse> = (call) => {
    const stream = new StreamCall<HealthCheckResponse>(call, watchTally);
    watchTally.received += 1;
    const req = call.request;
    if (req instanceof MalformedRequest) return stream.fail(malformedStatus(req));
    stream.write({ status: req.service === SERVED ? ServingStatus.SERVING : ServingStatus.SERVICE_UNKNOWN });
  };
  return {
    check: unaryReply(ctx, HealthService.check, (req) =>
      req.service === SERVED
        ? { ok: true, value: { status: ServingStatus.SERVING } }
        : { ok: false, status: { code: GrpcCode.NotFound, message: 'unknown service' } },
    ),
    watch,
  } satisfies Record<keyof typeof HealthService, unknown>;
}
