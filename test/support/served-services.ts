/**
 * Services with grpc-js-shaped handlers served on the client port's own HTTP/2 framing, for
 * transport tests that need a gRPC side: `addService` as on a grpc-js server, then hand the
 * object to `listenClient` (it is an `H2Serving`). `forceShutdown` is a no-op kept so a test
 * reads like one written against a grpc-js server (closing the listener ends the calls).
 */
import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createH2Serving } from '../../server/api/grpc/h2-serving.js';
import { addService, type ServedMethod } from '../../server/api/grpc/method-table.js';
import { createGrpcMetrics } from '../../server/api/grpc/metrics.js';
import type { H2ConnectionService, H2Serving } from '../../server/transport/h2/h2-serving.js';
import type { Socket } from 'node:net';

export class ServedServices implements H2Serving {
  readonly #methods = new Map<string, ServedMethod>();
  readonly #serving: H2Serving = createH2Serving(
    { methods: this.#methods, maxRecvBytes: 4 << 20, maxSendBytes: 2 ** 31 - 1 },
    pino({ level: 'silent' }),
    createGrpcMetrics(new Registry()),
  );

  addService(def: ServiceDefinition, impl: UntypedServiceImplementation): void {
    addService(this.#methods, def, impl);
  }

  open(socket: Socket): H2ConnectionService {
    return this.#serving.open(socket);
  }

  forceShutdown(): void {}
}
