/**
 * The gRPC server's streams on our own HTTP/2 framing (transport/h2/): per client connection,
 * every call is answered on its stream by the registered handlers (h2-calls.ts). grpc-js keeps
 * the same handlers for `KVSTORE_GRPC_HTTP2=node`, where connections are injected into it
 * through its public `createConnectionInjector`; nothing of grpc-js is used here.
 *
 * A fault inside a call (a handler that threw; a throw the connection caught in the layer
 * above) is logged once with the stream's context and counted in
 * `kvstore_client_faults_total`; the call is answered INTERNAL (or reset) and the
 * member goes on.
 *
 * `rememberH2Serving` is called once by `createGrpcServer`; `h2ServingOf` gives the client
 * port what it hands connections to.
 */
import type * as grpc from '@grpc/grpc-js';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { H2Serving, StreamFaultInfo } from '../../transport/h2/h2-serving.js';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { h2CallServer, type CallServerOptions } from './h2-calls.js';
import type { GrpcMetrics } from './metrics.js';

const servings = new WeakMap<grpc.Server, H2Serving>();

export function rememberH2Serving(server: grpc.Server, options: Omit<CallServerOptions, 'onFault'>, logger: Logger, metrics: GrpcMetrics): void {
  const report = (err: unknown, socket: Socket, info: StreamFaultInfo): void => {
    const path = info.path !== undefined && options.methods.has(info.path) ? info.path : 'other';
    metrics.clientFault('grpc', path);
    logger.error({ err, stream: info.streamId, method: info.path, remote: socket.remoteAddress }, 'a client call failed inside the member; answered INTERNAL');
  };
  servings.set(server, {
    open(socket) {
      const onFault = (err: unknown, stream: H2Stream): void => report(err, socket, { streamId: stream.id, path: stream.header(':path') });
      return {
        onStream: h2CallServer({ ...options, onFault }, socket),
        onStreamFault: (err, info) => report(err, socket, info),
        close: () => undefined,
      };
    },
  });
}

export function h2ServingOf(server: grpc.Server): H2Serving | undefined {
  return servings.get(server);
}
