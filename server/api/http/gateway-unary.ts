/**
 * Koa handlers for the unary gateway routes and for the Unimplemented ones.
 *
 * Contract:
 * - only POST is served (other methods: plain 405, no `Allow`, like grpc-gateway);
 * - success: 200, `application/json`, the response message's gateway JSON;
 * - failure: HTTP status from the gRPC code, body `{"error","code","message"}` (gateway-status.ts);
 *   domain errors go through the injected `toStatus`; a handler that throws (a broken
 *   invariant) is logged and answered as code Unknown (2) with the error's message;
 * - a client that disconnects before its body arrived gets no answer.
 */
import type { Context, Middleware } from 'koa';
import { clientGone } from './client-gone.js';
import type { GatewayDeps } from './gateway-deps.js';
import type { UnaryRoute, RouteOutcome } from './gateway-routes.js';
import { unaryErrorBody, type GatewayStatus } from './gateway-status.js';
import type { UnimplementedRoute } from './gateway-unimplemented.js';
import { GatewayCode, httpStatusFromGrpcCode } from './http-status.js';
import { sendMethodNotAllowed } from './plain-http-error.js';
import { readBody } from './read-body.js';

/**
 * The request's body as text; undefined once the request was answered instead: a body over the
 * limit gets ResourceExhausted, and a client that went away gets its connection closed.
 */
export async function readGatewayBody(ctx: Context, limitBytes: number): Promise<string | undefined> {
  const body = await readBody(ctx.req, limitBytes);
  if (body.ok) return body.text;
  if (body.status) sendGatewayError(ctx, body.status);
  else {
    ctx.respond = false;
    ctx.res.destroy();
  }
  return undefined;
}

export function sendGatewayError(ctx: Context, status: GatewayStatus): void {
  ctx.status = httpStatusFromGrpcCode(status.code);
  ctx.set('Content-Type', 'application/json');
  ctx.body = unaryErrorBody(status);
}

export function thrownStatus(err: unknown): GatewayStatus {
  return { code: GatewayCode.Unknown, message: err instanceof Error ? err.message : String(err) };
}

export function unaryHandler(route: UnaryRoute, deps: GatewayDeps): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') return sendMethodNotAllowed(ctx);
    const gone = clientGone(ctx.req, ctx.res);
    const text = await readGatewayBody(ctx, deps.maxBodyBytes);
    if (text === undefined) return;
    let outcome: RouteOutcome;
    try {
      outcome = await route.run(deps.services, text, deps.maxMessageBytes, gone.signal);
    } catch (err) {
      deps.logger.error({ err, method: route.grpcMethod }, 'gateway call failed unexpectedly');
      outcome = { kind: 'status', status: thrownStatus(err) };
    }
    switch (outcome.kind) {
      case 'ok':
        ctx.status = 200;
        ctx.set('Content-Type', 'application/json');
        ctx.body = JSON.stringify(outcome.json);
        return;
      case 'status':
        return sendGatewayError(ctx, outcome.status);
      case 'domain':
        return sendGatewayError(ctx, deps.toStatus(outcome.error));
    }
  };
}

export function unimplementedHandler(route: UnimplementedRoute, deps: GatewayDeps): Middleware {
  const status = deps.toStatus({ kind: 'Unimplemented', method: route.grpcMethod });
  return (ctx) => {
    if (ctx.method !== 'POST') return sendMethodNotAllowed(ctx);
    sendGatewayError(ctx, status);
  };
}
