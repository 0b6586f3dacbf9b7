/**
 * `POST <prefix>/lease/keepalive`: the LeaseKeepAlive stream over HTTP/1.1.
 *
 * Each JSON LeaseKeepAliveRequest in the body is answered, strictly in order, by one
 * `{"result":…}\n` chunk. When the body ends, the response ends after the last answer (etcd's
 * server ends the stream on the client's half-close). A domain error (e.g. no leader) or a
 * malformed request message ends the stream with an error chunk.
 */
import type { Middleware } from 'koa';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import type { GatewayDeps } from './gateway-deps.js';
import type { GatewayStatus } from './gateway-status.js';
import { thrownStatus } from './gateway-unary.js';
import { decodeJsonValue } from './json-decode.js';
import { readJsonStream } from './json-request-stream.js';
import { sendMethodNotAllowed } from './plain-http-error.js';
import { createStreamWriter } from './stream-writer.js';

export function keepAliveHandler(deps: GatewayDeps): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') return sendMethodNotAllowed(ctx, 'POST');
    ctx.respond = false;
    const writer = createStreamWriter(ctx.res);
    let chain: Promise<void> = Promise.resolve();
    const enqueue = (step: () => Promise<void> | void): void => {
      chain = chain.then(async () => {
        if (!writer.closed) await step();
      });
    };
    const fail = (status: GatewayStatus): void => {
      detach();
      writer.error(status);
    };

    const detach = readJsonStream(ctx.req, deps.maxBodyBytes, {
      value(v) {
        enqueue(async () => {
          const decoded = decodeJsonValue(pb.LeaseKeepAliveRequest, v);
          if (!decoded.ok) return fail(decoded.status);
          try {
            const result = await deps.services.lease.keepAlive(decoded.value);
            if (result.ok) writer.result(pb.LeaseKeepAliveResponse.toJSON(result.value));
            else fail(deps.toStatus(result.error));
          } catch (err) {
            deps.logger.error({ err }, 'lease keep-alive failed unexpectedly');
            fail(thrownStatus(err));
          }
        });
      },
      end() {
        enqueue(() => writer.end());
      },
      error(status) {
        enqueue(() => writer.error(status));
      },
    });
    await writer.done;
    detach();
    await chain;
  };
}
