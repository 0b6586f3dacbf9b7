/**
 * The gRPC server's streams on our own HTTP/2 framing (transport/h2/): per client connection,
 * the calls grpc-js would serve through its fast path are answered on the stream (h2-calls.ts)
 * and every other stream is relayed to the grpc-js server itself (h2-relay.ts), so streaming
 * handlers stay as they are.
 *
 * `rememberH2Serving` is called once by `createGrpcServer`; `h2ServingOf` gives the client
 * port what it hands connections to (undefined when grpc-js keeps its handlers elsewhere than
 * where version 1.14 does: then the port injects connections into grpc-js as before).
 */
import * as grpc from '@grpc/grpc-js';
import type { H2Serving } from '../../transport/h2/h2-serving.js';
import { h2CallServer } from './h2-calls.js';
import { H2Relay, type RelayTarget } from './h2-relay.js';
import { registeredHandlers, type FastPathOptions } from './unary-fast-path.js';

const servings = new WeakMap<grpc.Server, H2Serving>();

export function rememberH2Serving(server: grpc.Server, options: FastPathOptions): void {
  const handlers = registeredHandlers(server);
  if (handlers === undefined) return;
  let injector: ReturnType<grpc.Server['createConnectionInjector']> | undefined;
  const target: RelayTarget = {
    injectConnection(connection) {
      injector ??= server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
      injector.injectConnection(connection);
    },
  };
  servings.set(server, {
    open(socket) {
      const relay = new H2Relay(target, { socket });
      return { onStream: h2CallServer(handlers, options, socket, (stream) => relay.relay(stream)), close: () => relay.close() };
    },
  });
}

export function h2ServingOf(server: grpc.Server): H2Serving | undefined {
  return servings.get(server);
}
