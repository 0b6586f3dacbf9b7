/**
 * Koa middleware holding one stream slot (stream-slots.ts) for each gateway call while it runs,
 * as etcd's gateway holds one stream of its gRPC connection for the call.
 *
 * Contract:
 * - a POST takes a slot before its handler runs, or waits unanswered for one (FIFO);
 * - the slot is held until the call's client is gone: its response closed (answered, or the
 *   connection dropped) or its connection ended by the client (a FIN). The second is Go's: its
 *   HTTP server cancels a request's context when it reads EOF on the connection, which ends the
 *   gateway's gRPC call — a `/v3/watch` whose client left frees its stream at once, although
 *   no event is written to it (kvstore serves half-closed connections, so without this the slot
 *   would stay held until a write failed);
 * - a client gone while waiting is dropped without an answer and holds nothing;
 * - non-POST requests are answered 405 by the handlers without a call: they take no slot.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from 'koa';
import type { StreamSlots } from './stream-slots.js';

export function gatewayStreamLimit(slots: StreamSlots): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'POST') return next();
    const gone = clientGone(ctx.req, ctx.res);
    const release = await slots.acquire(gone.signal);
    if (release === undefined) {
      ctx.respond = false;
      return;
    }
    gone.then(release);
    await next();
  };
}

interface Gone {
  /** Aborted once the client is gone. */
  readonly signal: AbortSignal;
  /** Runs `f` once the client is gone (at once if it is already). */
  then(f: () => void): void;
}

/** The request's client is gone: its response closed, or its connection ended by the client. */
function clientGone(req: IncomingMessage, res: ServerResponse): Gone {
  const controller = new AbortController();
  // HTTP/1.x only: an HTTP/2 request (TLS, ALPN h2) shares its connection with others, and its
  // own end is its stream's, which closes the response.
  const socket = req.httpVersionMajor === 1 ? req.socket : undefined;
  const fire = (): void => {
    res.off('close', fire);
    socket?.off('end', fire);
    controller.abort();
  };
  if (res.closed === true || socket?.readableEnded === true || socket?.destroyed === true) controller.abort();
  else {
    res.once('close', fire);
    socket?.once('end', fire);
  }
  return {
    signal: controller.signal,
    then(f) {
      if (controller.signal.aborted) f();
      else controller.signal.addEventListener('abort', f, { once: true });
    },
  };
}
