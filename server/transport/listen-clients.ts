/**
 * Binds the shared gRPC + HTTP/1.1 client port on several URLs (`--listen-client-urls`).
 *
 * A host:port listed with both `http://` and `https://` is one listener serving both
 * (client-ports.ts).
 *
 * Contract: all or nothing — if one URL cannot be bound, the listeners already opened are
 * closed and the promise rejects with that error. `close()` closes every listener.
 */
import type { Logger } from 'pino';
import type { H2Serving } from './h2/h2-serving.js';
import { clientPorts } from './client-ports.js';
import { listenClient, type ClientListener, type ClientListenerOptions, type HttpHandler } from './client-listener.js';

export interface ClientListeners {
  readonly listeners: readonly ClientListener[];
  close(): Promise<void>;
}

export async function listenClients(
  urls: readonly URL[],
  h2: H2Serving,
  httpHandler: HttpHandler,
  logger: Logger,
  options: ClientListenerOptions = {},
): Promise<ClientListeners> {
  const listeners: ClientListener[] = [];
  const closeAll = async (): Promise<void> => {
    await Promise.all(listeners.map((l) => l.close()));
  };
  for (const port of clientPorts(urls)) {
    try {
      listeners.push(await listenClient(port, h2, httpHandler, logger, options));
    } catch (err) {
      await closeAll();
      throw err;
    }
  }
  return { listeners, close: closeAll };
}
