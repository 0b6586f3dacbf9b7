/**
 * The client port's HTTP handler with a fault barrier: a request whose handling throws (or
 * whose returned promise rejects) is answered `500` with a JSON error when nothing was sent
 * yet, or has its connection cut when an answer was already under way; the fault is reported
 * once (`onFault`: the member logs it with the request's method and path and counts it) and the
 * member goes on. koa already turns its middleware's errors into 500s; this catches what
 * escapes around it (the gateway's auth wrapper, the version switch).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const BODY = '{"error":"internal error while handling the request"}';

export function guardedHttpHandler(handler: Handler, onFault: (err: unknown, req: IncomingMessage) => void): Handler {
  const fail = (err: unknown, req: IncomingMessage, res: ServerResponse): void => {
    onFault(err, req);
    if (!res.headersSent && !res.writableEnded) res.writeHead(500, { 'content-type': 'application/json' }).end(BODY);
    else if (!res.writableEnded) res.destroy();
  };
  return (req, res) => {
    let pending: void | Promise<void>;
    try {
      pending = handler(req, res);
    } catch (e) {
      return fail(e, req, res);
    }
    if (pending instanceof Promise) return pending.catch((e: unknown) => fail(e, req, res));
    return pending;
  };
}
