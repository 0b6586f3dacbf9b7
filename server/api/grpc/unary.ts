/**
 * Unary call adapter: request → service function → reply or status.
 *
 * Order per call: count start + received message; malformed request → Internal;
 * a method the cluster version does not enable → NotCapable; a learner refuses what it does not serve; `hasleader` without a leader → NoLeader;
 * while auth is enabled, the auth gate (auth-gate.ts); then the service. A domain error goes through
 * the error table; a rejected promise (a bug, not an expected failure) is logged and sent
 * as Unknown with its message. Exactly one `handled` count per call.
 */
import type { handleUnaryCall, MethodDefinition, ServerUnaryCall } from '@grpc/grpc-js';
import type { Result } from '../../errors/domain-error.js';
import { GrpcCode, type GrpcStatus } from './codes.js';
import { lacksRequiredLeader, messageOf, refusedOnLearner, type EdgeContext } from './context.js';
import { MalformedRequest, malformedStatus, type Incoming } from './decode-guard.js';
import { toStatus } from './error-table.js';
import { callerOf, gateOf } from './auth-gate.js';

/** A reply decided at the edge itself (health, unimplemented): a value or a status. */
export type Reply<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly status: GrpcStatus };

type Def<Req, Res> = MethodDefinition<Req, Res>;

/** Adapts a service function returning domain Results. */
export function unary<Req, Res>(
  ctx: EdgeContext,
  def: Def<Req, Res>,
  fn: (req: Req) => Promise<Result<Res>>,
): handleUnaryCall<Incoming<Req>, Res> {
  return serve(ctx, def, fn, (r) => (r.ok ? r : { ok: false, status: toStatus(r.error) }));
}

/**
 * Adapts a service function that also needs its call: who calls (metadata, client certificate)
 * and when the client cancels (Lock and Election, which wait).
 */
export function unaryWithCall<Req, Res>(
  ctx: EdgeContext,
  def: Def<Req, Res>,
  fn: (req: Req, call: ServerUnaryCall<Incoming<Req>, Res>) => Promise<Result<Res>>,
): handleUnaryCall<Incoming<Req>, Res> {
  return serve(ctx, def, fn, (r) => (r.ok ? r : { ok: false, status: toStatus(r.error) }));
}

/** Adapts an edge-local function returning a Reply. */
export function unaryReply<Req, Res>(
  ctx: EdgeContext,
  def: Def<Req, Res>,
  fn: (req: Req) => Reply<Res>,
): handleUnaryCall<Incoming<Req>, Res> {
  return serve(ctx, def, (req) => Promise.resolve(fn(req)), (r) => r);
}

function serve<Req, Res, O>(
  ctx: EdgeContext,
  def: Def<Req, Res>,
  fn: (req: Req, call: ServerUnaryCall<Incoming<Req>, Res>) => Promise<O>,
  interpret: (outcome: O) => Reply<Res>,
): handleUnaryCall<Incoming<Req>, Res> {
  const tally = ctx.metrics.method(def);
  const handler: handleUnaryCall<Incoming<Req>, Res> = (call, callback) => {
    tally.started += 1;
    tally.received += 1;
    const fail = (status: GrpcStatus): void => {
      tally.handle(status.code);
      callback({ code: status.code, details: status.message });
    };
    const req = call.request;
    if (req instanceof MalformedRequest) return fail(malformedStatus(req));
    if (!ctx.capable(def.path)) return fail(toStatus({ kind: 'NotCapable' }));
    if (refusedOnLearner(ctx, def.path, req)) return fail(toStatus({ kind: 'RpcNotSupportedForLearner' }));
    if (lacksRequiredLeader(ctx, call.metadata)) return fail(toStatus({ kind: 'NoLeader' }));
    const onOutcome = (outcome: O): void => {
      const reply = interpret(outcome);
      if (!reply.ok) return fail(reply.status);
      tally.sent += 1;
      tally.handle(GrpcCode.OK);
      callback(null, reply.value);
    };
    const onThrow = (e: unknown): void => {
      ctx.logger.error({ err: e, method: def.path }, 'unary handler failed');
      fail({ code: GrpcCode.Unknown, message: messageOf(e) });
    };
    const run = (): void => {
      let pending: Promise<O>;
      try {
        pending = fn(req, call);
      } catch (e) {
        return onThrow(e);
      }
      pending.then(onOutcome, onThrow);
    };
    const gate = gateOf(ctx, call.metadata);
    if (gate === undefined) return run();
    gate.check(def.path, req, callerOf(call)).then((e) => (e === undefined ? run() : fail(toStatus(e))), onThrow);
  };
  return handler;
}
