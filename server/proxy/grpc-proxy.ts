/**
 * `kvstore grpc-proxy start`: a stateless L7 proxy for etcd's v3 gRPC API. Calls accepted on
 * the listen address are forwarded to the cluster's members (grpc-pass-through.ts,
 * upstream-clients.ts).
 *
 * The gRPC server itself listens on a private unix socket; the listen address is a plain or
 * TLS listener (`--cert-file`, `--key-file`, `--trusted-ca-file`, `--listen-cipher-suites`)
 * whose connections are joined to it. TLS is thus ended by node:tls with the full set of
 * options etcd's flags ask for, and grpc-js serves only plaintext HTTP/2.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { addPassThrough, type ProxyIdentity } from './grpc-pass-through.js';
import { dial, join, listenOn } from './socket-join.js';
import { upstreamClients, type UpstreamOptions } from './upstream-clients.js';
import { watchProxy } from './watch-proxy.js';
import { WatchService } from '../../proto/gen/etcd/rpc.js';

export interface ListenTls {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** Client certificates are required and checked against it when set. */
  readonly ca?: Buffer;
  /** OpenSSL cipher string; Node's defaults when undefined. */
  readonly ciphers?: string;
}

export interface GrpcProxyOptions {
  readonly listenHost: string;
  readonly listenPort: number;
  readonly upstream: UpstreamOptions;
  /** What MemberList through the proxy answers. */
  readonly identity: ProxyIdentity;
  readonly listenTls?: ListenTls;
  readonly maxConcurrentStreams?: number;
  /** Replies a slow watch client may leave unread before its stream is ended (1024, etcd's buffer). */
  readonly watchOutboxLimit?: number;
  readonly logger: Logger;
}

export interface GrpcProxy {
  readonly port: number;
  /** Watchers the proxy created on members (one per shared upstream watch); for tests. */
  upstreamWatchCreates(): number;
  close(): Promise<void>;
}

export async function startGrpcProxy(o: GrpcProxyOptions): Promise<GrpcProxy> {
  const log = o.logger;
  const clients = upstreamClients(o.upstream);
  const dir = await mkdtemp(joinPath(tmpdir(), 'kvstore-grpc-proxy-'));
  const socketPath = joinPath(dir, 'grpc.sock');
  const server = new grpc.Server({
    'grpc.max_receive_message_length': o.upstream.maxSendBytes,
    'grpc.max_send_message_length': o.upstream.maxRecvBytes,
    ...(o.maxConcurrentStreams !== undefined ? { 'grpc.max_concurrent_streams': o.maxConcurrentStreams } : {}),
  });
  const watches = watchProxy({ upstream: clients.pick, logger: log, outboxLimit: o.watchOutboxLimit });
  addPassThrough(server, clients.pick, o.identity, { [WatchService.watch.path]: watches.handler as grpc.UntypedHandleCall });
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(`unix:${socketPath}`, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
  );

  const open = new Set<Socket>();
  const accept = (client: Socket): void => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    dial({ path: socketPath }, 5_000, socketPath).then(
      (inner) => {
        if (client.destroyed) return void inner.destroy();
        join(client, inner);
        client.resume();
      },
      (err: Error) => {
        log.warn({ error: err.message }, 'cannot reach the proxy\'s gRPC server');
        client.destroy();
      },
    );
  };
  const t = o.listenTls;
  const front: Server =
    t === undefined
      ? createNetServer(accept)
      : createTlsServer(
          { cert: t.cert, key: t.key, ca: t.ca, requestCert: t.ca !== undefined, rejectUnauthorized: t.ca !== undefined, ciphers: t.ciphers, ALPNProtocols: ['h2'] },
          accept,
        );
  // A failed handshake costs that connection only.
  front.on('tlsClientError', (err: Error, s: Socket) => {
    log.debug({ error: err.message }, 'TLS handshake failed');
    s.destroy();
  });
  const port = await listenOn(front, o.listenHost, o.listenPort);
  front.on('error', (err) => log.error({ err }, 'gRPC proxy listener failed'));
  const address = `${o.listenHost}:${port}`;
  log.info({ address }, 'listening for gRPC proxy client requests');
  log.info({ address }, 'started gRPC proxy');
  return {
    port,
    upstreamWatchCreates: () => watches.upstreamWatchCreates(),
    close: async () => {
      watches.close();
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      server.forceShutdown();
      clients.close();
      await rm(dir, { recursive: true, force: true });
      log.info({ address }, 'stop listening gRPC proxy client requests');
    },
  };
}
