/**
 * The peer HTTP listener: one node:http server per `--listen-peer-urls` URL, all feeding one
 * PeerRouter (plain requests, `Expect: 100-continue` requests, and upgrades).
 *
 * An `https:` URL accepts TCP connections on a plain `net.Server` and runs the TLS handshake
 * (server/tls/tls-acceptor.ts: files checked at every accept, so a rotated peer certificate
 * needs no restart; with `requireClientCert` a certificate from the trusted CA is required,
 * optionally with an allowed CN or hostname) before the HTTP server sees the connection.
 *
 * Contract: `http:` URLs, and `https:` URLs when `tls` is given, with an explicit port (0 = any
 * free port); `unix://host:port` URLs listen on the unix socket `host:port` (etcd's naming; the
 * file is removed first if it exists, and by Node when the listener closes). `listenPeers` binds
 * all URLs or none (a failure closes what was bound and rejects with the cause). `close()`
 * stops accepting and destroys every socket still open (upgraded ones included); it resolves
 * when every server has closed.
 */
import { unlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import type { Logger } from 'pino';
import { createTlsAcceptor, type TlsAcceptor } from '../tls/tls-acceptor.js';
import { answerRaw } from './plain-answer.js';
import type { PeerRouter } from './routes.js';
import type { PeerTlsAccept } from './types.js';

/** A TLS handshake must complete within this time. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

export interface PeerListener {
  /** Bound URLs (port 0 resolved), in the order given. */
  readonly urls: readonly string[];
  close(): Promise<void>;
}

export async function listenPeers(urls: readonly string[], router: PeerRouter, log: Logger, tls?: PeerTlsAccept): Promise<PeerListener> {
  const servers: (Server | NetServer)[] = [];
  const acceptors: TlsAcceptor[] = [];
  const sockets = new Set<Socket>();
  const bound: string[] = [];
  const close = async (): Promise<void> => {
    const closing = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    for (const a of acceptors) a.close();
    for (const s of sockets) s.destroy();
    await Promise.all(closing);
  };
  try {
    for (const text of urls) {
      const where = listenAddress(text, tls !== undefined);
      const { display, secure } = where;
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
      let listening: Server | NetServer = server;
      if (secure && tls !== undefined) {
        const acceptor = createTlsAcceptor(
          { ...tls, alpn: ['http/1.1'], handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS },
          {
            onSecure: (socket) => server.emit('connection', socket),
            onRefused: (reason, remote) => log.warn({ remote, reason }, 'rejected peer connection'),
          },
        );
        acceptors.push(acceptor);
        listening = createNetServer({ noDelay: true }, (raw) => acceptor.accept(raw));
      }
      await new Promise<void>((resolve, reject) => {
        const onError = (err: Error): void => reject(new Error(`cannot listen on peer URL ${text}`, { cause: err }));
        listening.once('error', onError);
        if (where.path !== undefined) removeStaleSocket(where.path);
        listening.listen(where.path !== undefined ? { path: where.path } : { host: where.host, port: where.port }, () => {
          listening.removeListener('error', onError);
          resolve();
        });
      });
      servers.push(listening);
      listening.on('error', (err) => log.error({ error: err.message, url: text }, 'peer listener error'));
      if (where.path !== undefined) {
        bound.push(text);
        log.info({ address: where.path, unix: true }, 'serving peer traffic');
        continue;
      }
      const actual = (listening.address() as AddressInfo).port;
      bound.push(`${secure ? 'https' : 'http'}://${display}:${actual}`);
      log.info({ address: `${display}:${actual}`, tls: secure }, 'serving peer traffic');
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { urls: bound, close };
}

/**
 * Where to listen for a peer URL; throws on URLs this listener cannot serve (a configuration
 * error). A `unix://name:port` URL names a unix socket in the working directory, `name:port`
 * (as etcd: the URL's host and port are the socket's path).
 */
export function listenAddress(text: string, tls = false): { host: string; port: number; display: string; secure: boolean; path?: string } {
  const url = new URL(text);
  if (url.protocol === 'unix:') return { host: '', port: 0, display: url.host, secure: false, path: unixSocketPath(url) };
  const secure = url.protocol === 'https:';
  if (secure && !tls) throw new Error(`no TLS certificate for peer URL ${text}`);
  if (url.protocol !== 'http:' && !secure) throw new Error(`unsupported peer URL scheme ${url.protocol} in ${text}`);
  if (url.port === '') throw new Error(`peer URL ${text} must have a port`);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: Number(url.port), display: url.hostname, secure };
}

/** The socket path a `unix://` URL names: its host and port as written (`unix://etcd.unix:1` → `etcd.unix:1`). */
export function unixSocketPath(url: URL): string {
  if (url.host === '') throw new Error(`unix URL ${url.href} must name a socket as host:port`);
  return url.host;
}

/** As etcd, a socket file left by an earlier run is removed before listening (any other error stops the start). */
function removeStaleSocket(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot remove ${path} before listening on it`, { cause: e });
  }
}
