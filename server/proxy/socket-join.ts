/** Byte-level plumbing shared by the proxies: a bounded dial, two sockets joined end to end, a bind. */
import { createConnection, type NetConnectOpts, type Server, type Socket } from 'node:net';

/** Connects to `to` (TCP or a unix socket path); fails after `timeoutMs`. */
export function dial(to: NetConnectOpts, timeoutMs: number, label: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(to);
    const fail = (err: Error): void => {
      s.destroy();
      reject(err);
    };
    s.setTimeout(timeoutMs, () => fail(new Error(`dial ${label}: timed out after ${timeoutMs} ms`)));
    s.once('error', fail);
    s.once('connect', () => {
      s.setTimeout(0);
      s.removeListener('error', fail);
      resolve(s);
    });
  });
}

/** Joins two sockets; either side's end or error ends both. */
export function join(a: Socket, b: Socket): void {
  const end = (): void => {
    a.destroy();
    b.destroy();
  };
  a.on('error', end).on('close', end);
  b.on('error', end).on('close', end);
  a.pipe(b);
  b.pipe(a);
}

/** Binds `server` to `host:port`; the bound port (the system's choice for port 0). A bind error rejects. */
export async function listenOn(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  const a = server.address();
  return typeof a === 'object' && a !== null ? a.port : port;
}
