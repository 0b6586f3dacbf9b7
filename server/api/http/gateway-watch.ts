/**
 * `POST <prefix>/watch`: the bidirectional Watch stream over HTTP/1.1 (ETCD-FACTS §4.2).
 *
 * The request body is a sequence of JSON WatchRequest objects, fed to one watch session in
 * order; every WatchResponse is written as a `{"result":…}\n` chunk. The end of the request
 * body does not end the stream (etcd keeps watching until the client goes away).
 * An unreadable request message is handled as grpc-gateway does: the first one refuses the
 * call (unary-style InvalidArgument body); a later one ends the reading of requests (like a
 * client half-close) while the responses keep flowing. The session is closed when the response
 * ends for any reason, or when the client ends its connection (client-gone.ts: Go cancels the
 * request then, and etcd's watch with it; the response is ended).
 */
import type { Middleware } from 'koa';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { clientGone } from './client-gone.js';
import type { GatewayDeps } from './gateway-deps.js';
import type { GatewayStatus } from './gateway-status.js';
import { thrownStatus } from './gateway-unary.js';
import { WatchRequest } from './gateway-request-schemas.js';
import { decodeJsonText, type RequestCodec } from './json-decode.js';
import { GatewayCode } from './http-status.js';
import { readJsonStream } from './json-request-stream.js';
import { sendMethodNotAllowed } from './plain-http-error.js';
import { createStreamWriter } from './stream-writer.js';

const CODEC: RequestCodec<pb.WatchRequest> = { schema: WatchRequest, fns: pb.WatchRequest };

export function watchHandler(deps: GatewayDeps): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') return sendMethodNotAllowed(ctx);
    ctx.respond = false;
    const gone = clientGone(ctx.req, ctx.res);
    const writer = createStreamWriter(ctx.res);
    const session = deps.services.watch.openWatch((resp) => writer.result(pb.WatchResponse.toJSON(resp)));
    let accepted = 0;
    const unreadable = (status: GatewayStatus): void => {
      detach();
      if (accepted === 0) writer.reject(status);
      else deps.logger.debug({ message: status.message }, 'unreadable watch request; no further requests read');
    };
    const detach = readJsonStream(ctx.req, deps.maxBodyBytes, {
      value(v) {
        const decoded = decodeJsonText(CODEC, v, { failureCode: GatewayCode.Unknown, maxMessageBytes: deps.maxMessageBytes });
        if (!decoded.ok) return unreadable(decoded.status);
        accepted++;
        try {
          session.request(decoded.value);
        } catch (err) {
          deps.logger.error({ err }, 'watch request failed unexpectedly');
          detach();
          writer.error(thrownStatus(err));
        }
      },
      end() {
        // client half-close: keep streaming events until the client disconnects
      },
      error: unreadable,
    });
    await Promise.race([writer.done, new Promise<void>((resolve) => gone.then(resolve))]);
    detach();
    session.close();
    writer.end();
  };
}
