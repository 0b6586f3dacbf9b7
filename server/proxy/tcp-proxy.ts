/**
 * `kvstore gateway start`: an L4 proxy. Every connection accepted on the listen address is
 * joined, byte for byte, to one of the cluster's client endpoints, taken in turn among the ones
 * that answer (endpoint-pool.ts). An endpoint whose dial fails is skipped and probed again
 * after `--retry-delay`; the client is then tried on the next endpoint, and closed when none is
 * left. The proxy reads nothing of what passes: TLS and HTTP/2 go through untouched.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from 'pino';
import { endpointAddress, EndpointPool, type Endpoint } from './endpoint-pool.js';
import { dial, join } from './socket-join.js';

export interface TcpProxyOptions {
  readonly listenHost: string;
  readonly listenPort: number;
  readonly endpoints: readonly Endpoint[];
  readonly retryDelayMs: number;
  readonly logger: Logger;
  /** How long a dial to an endpoint may take before it counts as failed. */
  readonly dialTimeoutMs?: number;
}

export interface TcpProxy {
  /** The bound port (the listen port, or the one the system chose for port 0). */
  readonly port: number;
  close(): Promise<void>;
}

const DIAL_TIMEOUT_MS = 5_000;

export async function startTcpProxy(o: TcpProxyOptions): Promise<TcpProxy> {
  const pool = new EndpointPool(o.endpoints, o.retryDelayMs);
  const log = o.logger;
  const dialTimeout = o.dialTimeoutMs ?? DIAL_TIMEOUT_MS;
  const open = new Set<Socket>();

  const serve = async (client: Socket): Promise<void> => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    // Bytes the client sends while the dial is in flight wait in the socket.
    client.pause();
    for (let e = pool.pick(); e !== undefined; e = pool.pick()) {
      try {
        const remote = await dial({ host: e.host, port: e.port }, dialTimeout, endpointAddress(e));
        if (client.destroyed) {
          remote.destroy();
          return;
        }
        open.add(remote);
        remote.on('close', () => open.delete(remote));
        join(client, remote);
        client.resume();
        return;
      } catch (err) {
        pool.failed(e, Date.now());
        log.warn({ address: endpointAddress(e), interval: `${o.retryDelayMs / 1000}s`, error: (err as Error).message }, 'deactivated endpoint');
      }
    }
    client.destroy();
  };

  const probe = async (): Promise<void> => {
    for (const e of pool.due(Date.now())) {
      try {
        (await dial({ host: e.host, port: e.port }, dialTimeout, endpointAddress(e))).destroy();
        pool.recovered(e);
        log.info({ address: endpointAddress(e) }, 'activated');
      } catch (err) {
        pool.stillDown(e, Date.now());
        log.warn({ address: endpointAddress(e), interval: `${o.retryDelayMs / 1000}s`, error: (err as Error).message }, 'failed to activate endpoint (stay inactive for another interval)');
      }
    }
  };
  const monitor = setInterval(() => void probe(), Math.max(100, Math.min(o.retryDelayMs, 60_000)));
  monitor.unref();

  const server: Server = createServer((c) => void serve(c));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.listenPort, o.listenHost, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log.error({ err }, 'gateway listener failed'));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : o.listenPort;
  log.info({ endpoints: o.endpoints.map(endpointAddress) }, 'ready to proxy client requests');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(monitor);
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
