/**
 * The gRPC server's streams on our own HTTP/2 framing (transport/h2/): per client connection,
 * unary calls, the Snapshot stream and the bidi streams (Watch, LeaseKeepAlive) are answered on
 * the stream with the handlers grpc-js registered (h2-calls.ts, h2-bidi-call.ts), and every
 * other stream is relayed to the grpc-js server itself (h2-relay.ts).
 *
 * If grpc-js cannot be shown a relayed call's client socket (h2-relay-identity.ts relies on how
 * Node records a session on its stream), the first such connection logs a warning: those calls
 * then see no peer address and no certificate (client-certificate auth fails closed).
 *
 * `rememberH2Serving` is called once by `createGrpcServer`; `h2ServingOf` gives the client
 * port what it hands connections to (undefined when grpc-js keeps its handlers elsewhere than
 * where version 1.14 does: then the port injects connections into grpc-js as before).
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { H2Serving } from '../../transport/h2/h2-serving.js';
import { h2CallServer } from './h2-calls.js';
import { H2Relay, type RelayTarget } from './h2-relay.js';
import { registeredHandlers, type FastPathOptions } from './unary-fast-path.js';

const servings = new WeakMap<grpc.Server, H2Serving>();

export function rememberH2Serving(server: grpc.Server, options: FastPathOptions, logger: Logger): void {
  const handlers = registeredHandlers(server);
  if (handlers === undefined) return;
  let warned = false;
  const onUnidentified = (): void => {
    if (warned) return;
    warned = true;
    logger.warn(
      { variable: 'KVSTORE_GRPC_HTTP2' },
      'relayed gRPC streams (compressed, or bidi with a deadline) cannot see the client address or certificate on this Node.js version; set KVSTORE_GRPC_HTTP2=node where client certificates matter',
    );
  };
  let injector: ReturnType<grpc.Server['createConnectionInjector']> | undefined;
  const target: RelayTarget = {
    injectConnection(connection) {
      injector ??= server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
      injector.injectConnection(connection);
    },
  };
  servings.set(server, {
    open(socket) {
      const relay = new H2Relay(target, { socket, onUnidentified });
      return { onStream: h2CallServer(handlers, options, socket, (stream) => relay.relay(stream)), close: () => relay.close() };
    },
  });
}

export function h2ServingOf(server: grpc.Server): H2Serving | undefined {
  return servings.get(server);
}
