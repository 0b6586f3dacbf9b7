/**
 * The peer HTTP listener: one node:http server per `--listen-peer-urls` URL, all feeding one
 * PeerRouter (plain requests, `Expect: 100-continue` requests, and upgrades).
 *
 * Contract: only `http:` URLs with an explicit port (0 = any free port). `listenPeers` binds
 * all URLs or none (a failure closes what was bound and rejects with the cause). `close()`
 * stops accepting and destroys every socket still open (upgraded ones included); it resolves
 * when every server has closed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from 'pino';
import { answerRaw } from './plain-answer.js';
import type { PeerRouter } from './routes.js';

export interface PeerListener {
  /** Bound URLs (port 0 resolved), in the order given. */
  readonly urls: readonly string[];
  close(): Promise<void>;
}

export async function listenPeers(urls: readonly string[], router: PeerRouter, log: Logger): Promise<PeerListener> {
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const bound: string[] = [];
  const close = async (): Promise<void> => {
    const closing = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    for (const s of sockets) s.destroy();
    await Promise.all(closing);
  };
  try {
    for (const text of urls) {
      const { host, port, display } = listenAddress(text);
      const server = createServer({ requestTimeout: 0, headersTimeout: 10_000, keepAliveTimeout: 5_000 }, (req, res) =>
        router.dispatch(req, res, false),
      );
      server.on('checkContinue', (req, res) => router.dispatch(req, res, true));
      server.on('upgrade', (req, socket, head) => router.upgrade(req, socket, head));
      server.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        // Kept for the socket's whole life: an upgraded or refused socket loses the HTTP
        // server's own error listener, and a peer resetting it must not stop this member.
        socket.on('error', (err) => log.debug({ error: err.message }, 'peer connection error'));
      });
      server.on('clientError', (err, socket) => {
        log.debug({ error: err.message }, 'peer HTTP client error');
        if (socket.writable) answerRaw(socket, 400, 'Bad Request');
        else socket.destroy();
      });
      await new Promise<void>((resolve, reject) => {
        const onError = (err: Error): void => reject(new Error(`cannot listen on peer URL ${text}`, { cause: err }));
        server.once('error', onError);
        server.listen({ host, port }, () => {
          server.removeListener('error', onError);
          resolve();
        });
      });
      servers.push(server);
      server.on('error', (err) => log.error({ error: err.message, url: text }, 'peer listener error'));
      const actual = (server.address() as AddressInfo).port;
      bound.push(`http://${display}:${actual}`);
      log.info({ address: `${display}:${actual}` }, 'serving peer traffic');
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { urls: bound, close };
}

/** Where to listen for a peer URL; throws on URLs this listener cannot serve (a configuration error). */
export function listenAddress(text: string): { host: string; port: number; display: string } {
  const url = new URL(text);
  if (url.protocol !== 'http:') throw new Error(`unsupported peer URL scheme ${url.protocol} in ${text} (TLS is not served)`);
  if (url.port === '') throw new Error(`peer URL ${text} must have a port`);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: Number(url.port), display: url.hostname };
}
