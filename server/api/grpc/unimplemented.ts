/**
 * Handlers answering Unimplemented (code 12, `kvstore: not implemented: <path>`) for every
 * method of a service definition — unary, server-streaming and bidi alike.
 * Used for services kvstore registers (so clients get a clear answer and metrics have
 * series) but does not serve yet.
 */
import type {
  handleServerStreamingCall,
  MethodDefinition,
  ServiceDefinition,
  UntypedHandleCall,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import type { GrpcStatus } from './codes.js';
import { lacksRequiredLeader, type EdgeContext } from './context.js';
import { toStatus } from './error-table.js';
import { StreamCall } from './stream-call.js';
import { unaryReply } from './unary.js';

export function unimplementedHandlers(ctx: EdgeContext, def: ServiceDefinition): UntypedServiceImplementation {
  const handlers: UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(def)) handlers[name] = unimplemented(ctx, method);
  return handlers;
}

/** One Unimplemented handler for `method`, whatever its streaming shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any method shape; requests are never read
export function unimplemented(ctx: EdgeContext, method: MethodDefinition<any, any>): UntypedHandleCall {
  const status: GrpcStatus = toStatus({ kind: 'Unimplemented', method: method.path });
  if (!method.requestStream && !method.responseStream) {
    return unaryReply(ctx, method, () => ({ ok: false, status }));
  }
  // No etcd service has client-streaming methods; every other shape is a stream we end at once.
  if (!method.responseStream) throw new Error(`client-streaming method ${method.path} is not supported`);
  const tally = ctx.metrics.method(method);
  const stream: handleServerStreamingCall<unknown, unknown> = (call) => {
    const s = new StreamCall(call, tally);
    s.fail(lacksRequiredLeader(ctx, call.metadata) ? toStatus({ kind: 'NoLeader' }) : status);
  };
  return stream;
}
