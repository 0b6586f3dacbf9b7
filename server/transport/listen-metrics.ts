/**
 * The `--listen-metrics-urls` listeners: `http:` and `https:` URLs serving only the metrics
 * app (api/http/metrics-app.ts). They are client listeners (client-listener.ts: the same TLS
 * acceptor, certificate reload and client-certificate policy as the client port, with the
 * client certificate files) whose gRPC side is an empty server: a gRPC call there answers
 * Unimplemented, as no service is registered.
 *
 * Contract: all or nothing, as listenClients; an `https:` URL without client TLS material
 * (`--cert-file`/`--key-file` or `--auto-tls`) is refused before anything is bound.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { ClientListenerOptions, HttpHandler } from './client-listener.js';
import { listenClients, type ClientListeners } from './listen-clients.js';

export async function listenMetrics(urls: readonly URL[], httpHandler: HttpHandler, logger: Logger, options: ClientListenerOptions = {}): Promise<ClientListeners> {
  const insecure = urls.find((u) => u.protocol === 'https:' && options.tls === undefined);
  if (insecure !== undefined) throw new Error(`cannot listen on TLS for ${insecure.protocol}//${insecure.host}: KeyFile and CertFile are not presented`);
  const empty = new grpc.Server();
  const listeners = await listenClients(urls, empty, httpHandler, logger.child({ component: 'metrics-listener' }), options);
  return {
    listeners: listeners.listeners,
    async close() {
      await listeners.close();
      empty.forceShutdown();
    },
  };
}
