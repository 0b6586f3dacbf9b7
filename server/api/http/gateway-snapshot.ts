/**
 * `POST <prefix>/maintenance/snapshot`: the server-streaming Snapshot call over HTTP/1.1.
 *
 * The body is one SnapshotRequest (usually `{}`); every SnapshotResponse chunk of the service's
 * iterable is written as `{"result":…}\n`; the response ends with the iterable. The Services
 * contract has no error values for this stream: an iterable that throws ends the response with
 * a code Unknown (2) error chunk. A client that disconnects stops the iteration (`return()`).
 */
import type { Middleware } from 'koa';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import type { GatewayDeps } from './gateway-deps.js';
import { readGatewayBody, sendGatewayError, thrownStatus } from './gateway-unary.js';
import { SnapshotRequest } from './gateway-request-schemas.js';
import { decodeJsonText } from './json-decode.js';
import { sendMethodNotAllowed } from './plain-http-error.js';
import { createStreamWriter } from './stream-writer.js';

export function snapshotHandler(deps: GatewayDeps): Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') return sendMethodNotAllowed(ctx);
    const text = await readGatewayBody(ctx, deps.maxBodyBytes);
    if (text === undefined) return;
    const decoded = decodeJsonText({ schema: SnapshotRequest, fns: pb.SnapshotRequest }, text, { maxMessageBytes: deps.maxMessageBytes });
    if (!decoded.ok) return sendGatewayError(ctx, decoded.status);

    ctx.respond = false;
    const writer = createStreamWriter(ctx.res);
    try {
      for await (const chunk of deps.services.maintenance.snapshot(decoded.value)) {
        if (writer.closed) break;
        writer.result(pb.SnapshotResponse.toJSON(chunk));
        if (ctx.res.writableNeedDrain) await Promise.race([waitDrain(ctx.res), writer.done]);
      }
      writer.end();
    } catch (err) {
      deps.logger.error({ err }, 'snapshot stream failed');
      writer.error(thrownStatus(err));
    }
  };
}

function waitDrain(res: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => res.once('drain', () => resolve()));
}
