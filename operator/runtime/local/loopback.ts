/**
 * Picks a loopback address for a new local member: a host 127.0.0.x (x in 2…254, random) and
 * two ports that were free on it a moment ago (both listeners held open together so they never
 * coincide). Random choices come from the injected `random` (Math.random in main).
 */
import { createServer, type Server } from 'node:net';

export interface LoopbackAddress {
  readonly host: string;
  readonly clientPort: number;
  readonly peerPort: number;
}

function listenOnce(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen({ host, port: 0, exclusive: true }, () => resolve(srv));
  });
}

function portOf(srv: Server): number {
  const a = srv.address();
  if (a === null || typeof a === 'string') throw new Error('listener without a TCP address');
  return a.port;
}

export async function pickLoopback(random: () => number): Promise<LoopbackAddress> {
  const host = `127.0.0.${2 + Math.floor(random() * 253)}`;
  const servers: Server[] = [];
  try {
    servers.push(await listenOnce(host), await listenOnce(host));
    return { host, clientPort: portOf(servers[0]), peerPort: portOf(servers[1]) };
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}
