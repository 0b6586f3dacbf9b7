/**
 * The gRPC proxy's Watch service: client watch streams are decoded and their watchers served
 * from shared upstream watches (watch-coalescer.ts holds the logic; this file does the I/O).
 *
 * One upstream Watch stream per caller identity: client streams whose forwarded metadata (auth
 * token, `hasleader`) are equal share one stream to a member, and so its watchers. Callers with
 * different tokens never share a watcher: the member checks each one's permissions itself.
 *
 * The upstream stream ending (the member gone, leader lost with `hasleader`) ends every client
 * stream on it with the member's status, as the member would have ended them; clients then
 * reconnect and resume from their last revision. A client that reads too slowly (more than
 * `outboxLimit` responses waiting) has its stream ended with UNAVAILABLE; the others go on.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { WatchRequest, WatchResponse, WatchService } from '../../proto/gen/etcd/rpc.js';
import { asStatus, forwardable, type Upstream } from './grpc-pass-through.js';
import { WatchCoalescer, type ClientId, type Effect } from './watch-coalescer.js';
import { WatchOutbox } from './watch-outbox.js';

const identity = (b: Buffer): Buffer => b;

export interface WatchProxyOptions {
  readonly upstream: Upstream;
  readonly logger: Logger;
  /** Responses a client may leave unread before its stream is ended (etcd's proxy buffers 1024). */
  readonly outboxLimit?: number;
}

export interface WatchProxy {
  readonly handler: grpc.handleBidiStreamingCall<Buffer, Buffer>;
  /** Watchers created on members since the start (one per shared upstream watch). */
  upstreamWatchCreates(): number;
  close(): void;
}

interface Shared {
  readonly core: WatchCoalescer;
  readonly call: grpc.ClientDuplexStream<Buffer, Buffer>;
}

interface ClientStream {
  readonly call: grpc.ServerDuplexStream<Buffer, Buffer>;
  readonly outbox: WatchOutbox;
  readonly key: string;
}

export function watchProxy(o: WatchProxyOptions): WatchProxy {
  const shared = new Map<string, Shared>();
  const clients = new Map<ClientId, ClientStream>();
  let nextClient = 0;
  let creates = 0;
  const limit = o.outboxLimit ?? 1024;

  const endClient = (id: ClientId, status: grpc.StatusObject): void => {
    const c = clients.get(id);
    if (c === undefined) return;
    clients.delete(id);
    c.call.emit('error', status);
  };

  const apply = (key: string, effects: readonly Effect[]): void => {
    for (const e of effects) {
      if (e.to === 'member') {
        if (e.request.requestUnion?.$case === 'createRequest') {
          creates++;
          o.logger.info({ creates, key: e.request.requestUnion.value.key.toString() }, 'created an upstream watch');
        }
        shared.get(key)?.call.write(Buffer.from(WatchRequest.encode(e.request).finish()));
        continue;
      }
      const c = clients.get(e.client);
      if (c === undefined) continue;
      if (c.outbox.push(Buffer.from(WatchResponse.encode(e.response).finish())) === 'overflow') {
        o.logger.warn({ client: e.client, limit }, 'watch client too slow: stream ended');
        apply(key, shared.get(key)?.core.clientGone(e.client) ?? []);
        endClient(e.client, { code: grpc.status.UNAVAILABLE, details: `grpc-proxy: watch client too slow (${limit} responses unread)`, metadata: new grpc.Metadata() });
      }
    }
  };

  const sharedFor = (key: string, md: grpc.Metadata): Shared => {
    const found = shared.get(key);
    if (found !== undefined) return found;
    const call = o.upstream().makeBidiStreamRequest(WatchService.watch.path, identity, identity, md, {});
    const s: Shared = { core: new WatchCoalescer(), call };
    shared.set(key, s);
    const ended = (status: grpc.StatusObject): void => {
      if (shared.get(key) !== s) return;
      shared.delete(key);
      for (const id of s.core.clients) endClient(id, status);
    };
    call.on('data', (b: Buffer) => apply(key, s.core.fromMember(WatchResponse.decode(b))));
    call.on('error', (err: grpc.ServiceError) => ended(asStatus(err)));
    call.on('end', () => ended({ code: grpc.status.UNAVAILABLE, details: 'grpc-proxy: the member ended the watch stream', metadata: new grpc.Metadata() }));
    o.logger.info({ streams: shared.size, metadata: Object.keys(md.getMap()) }, 'opened an upstream watch stream');
    return s;
  };

  const handler = (call: grpc.ServerDuplexStream<Buffer, Buffer>): void => {
    const id = nextClient++;
    const md = forwardable(call.metadata);
    const key = JSON.stringify(Object.entries(md.getMap()).sort(([a], [b]) => a.localeCompare(b)));
    clients.set(id, { call, outbox: new WatchOutbox(call, limit), key });
    call.on('data', (b: Buffer) => {
      if (!clients.has(id)) return;
      let req: WatchRequest;
      try {
        req = WatchRequest.decode(b);
      } catch (err) {
        endClient(id, { code: grpc.status.INVALID_ARGUMENT, details: `grpc-proxy: bad WatchRequest: ${(err as Error).message}`, metadata: new grpc.Metadata() });
        return;
      }
      const u = req.requestUnion;
      if (u === undefined) return;
      const s = sharedFor(key, md);
      if (u.$case === 'createRequest') apply(key, s.core.create(id, u.value));
      else if (u.$case === 'cancelRequest') apply(key, s.core.cancel(id, u.value.watchId));
      else apply(key, s.core.progress(id));
    });
    const gone = (): void => {
      clients.delete(id);
      const s = shared.get(key);
      if (s === undefined) return;
      apply(key, s.core.clientGone(id));
      // The last client of this identity left: the member drops its watchers with the stream.
      if (s.core.clients.length === 0) {
        shared.delete(key);
        s.call.cancel();
      }
    };
    call.on('cancelled', gone);
    call.on('close', gone);
    call.on('error', gone);
  };

  return {
    handler,
    upstreamWatchCreates: () => creates,
    close: () => {
      for (const s of shared.values()) s.call.cancel();
      shared.clear();
    },
  };
}
