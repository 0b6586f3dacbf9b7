/**
 * The `--listen-metrics-urls` listeners: `http:` and `https:` URLs serving only the metrics
 * app (api/http/metrics-app.ts). They are client listeners (client-listener.ts: the same TLS
 * acceptor, certificate reload and client-certificate policy as the client port, with the
 * client certificate files) whose gRPC side serves no method: a gRPC call there answers
 * Unimplemented (api/grpc/h2-serving.ts's `noMethods`).
 *
 * Contract: all or nothing, as listenClients; an `https:` URL without client TLS material
 * (`--cert-file`/`--key-file` or `--auto-tls`) is refused before anything is bound.
 */
import type { Logger } from 'pino';
import type { ClientListenerOptions, HttpHandler } from './client-listener.js';
import type { H2Serving } from './h2/h2-serving.js';
import { listenClients, type ClientListeners } from './listen-clients.js';

export async function listenMetrics(urls: readonly URL[], noMethods: H2Serving, httpHandler: HttpHandler, logger: Logger, options: ClientListenerOptions = {}): Promise<ClientListeners> {
  const insecure = urls.find((u) => u.protocol === 'https:' && options.tls === undefined);
  if (insecure !== undefined) throw new Error(`cannot listen on TLS for ${insecure.protocol}//${insecure.host}: KeyFile and CertFile are not presented`);
  return listenClients(urls, noMethods, httpHandler, logger.child({ component: 'metrics-listener' }), options);
}
