/**
 * Koa middleware holding one stream slot (stream-slots.ts) for each gateway call while it runs,
 * as etcd's gateway holds one stream of its gRPC connection for the call.
 *
 * Contract:
 * - a POST takes a slot before its handler runs, or waits unanswered for one (FIFO);
 * - the slot is held until the call's client is gone (client-gone.ts: its response closed, or
 *   its HTTP/1.x connection ended by the client) — a `/v3/watch` whose client left frees its
 *   stream at once, although no event is written to it;
 * - a client gone while waiting is dropped without an answer and holds nothing;
 * - non-POST requests are answered 405 by the handlers without a call: they take no slot.
 */
import type { Middleware } from 'koa';
import { clientGone } from './client-gone.js';
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
