/**
 * `POST <prefix>/lease/keepalive`: the LeaseKeepAlive stream over HTTP/1.1.
 *
 * Each JSON LeaseKeepAliveRequest in the body is answered, strictly in order, by one
 * `{"result":…}\n` chunk. When the body ends, the response ends after the last answer (etcd's
 * server ends the stream on the client's half-close). A domain error (e.g. no leader) ends the
 * stream with an error chunk. An unreadable request message is handled as grpc-gateway does:
 * the first one refuses the call (unary-style InvalidArgument body); a later one is treated as
 * the end of the requests.
 */
import type { Middleware } from 'koa';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import type { GatewayDeps } from './gateway-deps.js';
import type { GatewayStatus } from './gateway-status.js';
import { thrownStatus } from './gateway-unary.js';
import { LeaseKeepAliveRequest } from './gateway-request-schemas.js';
import { decodeJsonText, type RequestCodec } from './json-decode.js';
import { GatewayCode } from './http-status.js';
import { readJsonStream } from './json-request-stream.js';
import { sendMethodNotAllowed } from './plain-http-error.js';
import { createStreamWriter } from './stream-writer.js';

const CODEC: RequestCodec<pb.LeaseKeepAliveRequest> = { schema: LeaseKeepAliveRequest, fns: pb.LeaseKeepAliveRequest };

export function keepAliveHandler(deps: GatewayDeps): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') return sendMethodNotAllowed(ctx);
    ctx.respond = false;
    const writer = createStreamWriter(ctx.res);
    let chain: Promise<void> = Promise.resolve();
    let stopped = false;
    let accepted = 0;
    /** Runs `step` after every earlier one, unless the stream has stopped meanwhile. */
    const enqueue = (step: () => Promise<void> | void): void => {
      chain = chain.then(async () => {
        if (!stopped && !writer.closed) await step();
      });
    };
    /** Ends the stream: with `failure` as an error chunk, or cleanly (end of requests). */
    const stop = (failure?: GatewayStatus): void => {
      stopped = true;
      detach();
      if (failure) writer.error(failure);
      else writer.end();
    };
    const unreadable = (status: GatewayStatus): void => {
      if (accepted === 0) {
        stopped = true;
        detach();
        writer.reject(status);
      } else {
        deps.logger.debug({ message: status.message }, 'unreadable keep-alive request; ending the stream');
        stop();
      }
    };

    const detach = readJsonStream(ctx.req, deps.maxBodyBytes, {
      value(v) {
        enqueue(async () => {
          const decoded = decodeJsonText(CODEC, v, { failureCode: GatewayCode.Unknown, maxMessageBytes: deps.maxMessageBytes });
          if (!decoded.ok) return unreadable(decoded.status);
          accepted++;
          try {
            const result = await deps.services.lease.keepAlive(decoded.value);
            if (result.ok) writer.result(pb.LeaseKeepAliveResponse.toJSON(result.value));
            else stop(deps.toStatus(result.error));
          } catch (err) {
            deps.logger.error({ err }, 'lease keep-alive failed unexpectedly');
            stop(thrownStatus(err));
          }
        });
      },
      end() {
        enqueue(() => stop());
      },
      error(status) {
        enqueue(() => unreadable(status));
      },
    });
    await writer.done;
    stopped = true;
    detach();
    await chain;
  };
}
