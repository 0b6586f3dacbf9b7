/**
 * Test harness for the HTTP/2 relay (server/api/grpc/h2-relay.ts), not a test file itself:
 * a grpc-js server (never bound to a port) with one service of raw-bytes methods — unary,
 * server streaming, client streaming, bidi — whose handlers the test sets; a net or TLS server
 * whose connections are our `H2Connection`s relaying EVERY stream through one `H2Relay` each;
 * and real grpc-js clients for it.
 */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { H2Relay } from '../../../server/api/grpc/h2-relay.js';
import { H2Connection } from '../../../server/transport/h2/h2-connection.js';
import type { H2Stream } from '../../../server/transport/h2/h2-stream.js';
import type { TlsFiles } from '../../support/tls-certs.js';

const bytes = (b: Buffer): Buffer => b;
const raw = { requestSerialize: bytes, requestDeserialize: bytes, responseSerialize: bytes, responseDeserialize: bytes };

/** The test service: every message is a Buffer, passed through untouched. */
export const SERVICE = {
  unary: { path: '/relay.Test/Unary', requestStream: false, responseStream: false, ...raw },
  serverStream: { path: '/relay.Test/ServerStream', requestStream: false, responseStream: true, ...raw },
  clientStream: { path: '/relay.Test/ClientStream', requestStream: true, responseStream: false, ...raw },
  bidi: { path: '/relay.Test/Bidi', requestStream: true, responseStream: true, ...raw },
} satisfies grpc.ServiceDefinition;

export interface Handlers {
  unary: grpc.handleUnaryCall<Buffer, Buffer>;
  serverStream: grpc.handleServerStreamingCall<Buffer, Buffer>;
  clientStream: grpc.handleClientStreamingCall<Buffer, Buffer>;
  bidi: grpc.handleBidiStreamingCall<Buffer, Buffer>;
}

export interface RelayWorld {
  readonly port: number;
  /** Replace a handler for the next calls. */
  readonly handlers: Handlers;
  /** The server side of every client connection accepted so far. */
  readonly sockets: Socket[];
  /** How often a relayed stream's `write` returned false (the client's window was full), and headers-only answers. */
  readonly stats: { writeFull: number; headersOnly: number };
  stop(): void;
}

const unset = (): never => {
  throw new Error('handler not set by the test');
};

/** Starts the grpc-js server and a plaintext (or, with `tls`, TLS with client certificates) listener relaying to it. */
export async function startRelayWorld(tls?: TlsFiles): Promise<RelayWorld> {
  const handlers: Handlers = { unary: unset, serverStream: unset, clientStream: unset, bidi: unset };
  const grpcServer = new grpc.Server();
  grpcServer.addService(SERVICE, {
    unary: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => handlers.unary(call, cb),
    serverStream: (call: grpc.ServerWritableStream<Buffer, Buffer>) => handlers.serverStream(call),
    clientStream: (call: grpc.ServerReadableStream<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => handlers.clientStream(call, cb),
    bidi: (call: grpc.ServerDuplexStream<Buffer, Buffer>) => handlers.bidi(call),
  });
  const injector = grpcServer.createConnectionInjector(grpc.ServerCredentials.createInsecure());
  const sockets: Socket[] = [];
  const stats = { writeFull: 0, headersOnly: 0 };

  const serve = (socket: Socket): void => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    const conn = new H2Connection(socket);
    const relay = new H2Relay(injector, { socket });
    conn.onStream = (s: H2Stream) => {
      const write = s.write.bind(s);
      s.write = (data) => {
        const sent = write(data);
        if (!sent) stats.writeFull++;
        return sent;
      };
      const respond = s.respond.bind(s);
      s.respond = (block, endStream) => {
        if (endStream === true) stats.headersOnly++;
        respond(block, endStream);
      };
      relay.relay(s);
    };
    conn.onClose = () => relay.close();
  };
  const server: Server =
    tls === undefined
      ? createServer(serve)
      : createTlsServer(
          {
            key: readFileSync(tls.serverKey),
            cert: readFileSync(tls.serverCert),
            ca: readFileSync(tls.caCert),
            requestCert: true,
            rejectUnauthorized: true,
            ALPNProtocols: ['h2'],
          },
          (socket: TLSSocket) => serve(socket),
        );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    handlers,
    sockets,
    stats,
    stop() {
      server.close();
      for (const s of sockets) s.destroy();
      injector.destroy();
      grpcServer.forceShutdown();
    },
  };
}

/** The test service's client type. */
export type TestClient = grpc.Client & {
  unary(req: Buffer, md: grpc.Metadata, cb: grpc.requestCallback<Buffer>): grpc.ClientUnaryCall;
  serverStream(req: Buffer, md?: grpc.Metadata): grpc.ClientReadableStream<Buffer>;
  clientStream(cb: grpc.requestCallback<Buffer>): grpc.ClientWritableStream<Buffer>;
  bidi(md?: grpc.Metadata): grpc.ClientDuplexStream<Buffer, Buffer>;
};

/** A real grpc-js client of the world on a connection of its own (over TLS with the client certificate when `tls` is given). */
export function relayClient(world: RelayWorld, tls?: TlsFiles): TestClient {
  const Client = grpc.makeGenericClientConstructor(SERVICE, 'Test');
  const credentials =
    tls === undefined
      ? grpc.credentials.createInsecure()
      : grpc.credentials.createSsl(readFileSync(tls.caCert), readFileSync(tls.clientKey), readFileSync(tls.clientCert));
  // A connection of its own (grpc-js shares one between clients of a target by default), so the
  // last accepted socket is this client's. The server certificate names `localhost` too: checked
  // under that name (no IP as TLS server name).
  const options = { 'grpc.use_local_subchannel_pool': 1, ...(tls === undefined ? {} : { 'grpc.ssl_target_name_override': 'localhost' }) };
  return new Client(`127.0.0.1:${world.port}`, credentials, options) as unknown as TestClient;
}
