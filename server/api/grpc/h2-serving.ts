/**
 * The gRPC layer as the client port sees it (transport/h2/h2-serving.ts): per client
 * connection, every call is answered on its stream by the registered handlers (h2-calls.ts).
 *
 * A fault inside a call (a handler that threw; a throw the connection caught in the layer
 * above) is logged once with the stream's context and counted in
 * `kvstore_client_faults_total{protocol="grpc"}`; the call is answered INTERNAL (or reset) and
 * the member goes on.
 */
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { H2Serving, StreamFaultInfo } from '../../transport/h2/h2-serving.js';
import type { H2Stream } from '../../transport/h2/h2-stream.js';
import { h2CallServer, type CallServerOptions } from './h2-calls.js';
import type { GrpcMetrics } from './metrics.js';

export function createH2Serving(options: Omit<CallServerOptions, 'onFault'>, logger: Logger, metrics: GrpcMetrics): H2Serving {
  const report = (err: unknown, socket: Socket, info: StreamFaultInfo): void => {
    const path = info.path !== undefined && options.methods.has(info.path) ? info.path : 'other';
    metrics.clientFault('grpc', path);
    logger.error({ err, stream: info.streamId, method: info.path, remote: socket.remoteAddress }, 'a client call failed inside the member; answered INTERNAL');
  };
  return {
    open(socket) {
      const onFault = (err: unknown, stream: H2Stream): void => report(err, socket, { streamId: stream.id, path: stream.header(':path') });
      return {
        onStream: h2CallServer({ ...options, onFault }, socket),
        onStreamFault: (err, info) => report(err, socket, info),
        close: () => undefined,
      };
    },
  };
}

/** A gRPC side that serves no method (the metrics listeners): every call is UNIMPLEMENTED. */
export function noMethods(): H2Serving {
  return {
    open(socket) {
      return { onStream: h2CallServer({ methods: new Map(), maxRecvBytes: 0, maxSendBytes: 0 }, socket), close: () => undefined };
    },
  };
}
