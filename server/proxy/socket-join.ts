/** Byte-level plumbing shared by the proxies: a bounded dial, and two sockets joined end to end. */
import { createConnection, type NetConnectOpts, type Socket } from 'node:net';

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
