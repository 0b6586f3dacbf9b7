// Test harness: a fake Services object (every method replaceable per test), the real gRPC
// edge served on 127.0.0.1:<any> the way a member serves it — through the client port on our
// own HTTP/2 framing (`transport: 'own'`, the default) — or, as a reference to compare with,
// the very same handlers on a real grpc-js server (`'grpc-js'`) — and real grpc-js clients.
// Not a test file itself.
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import * as pb from '../../../proto/gen/etcd/rpc.js';
import { ok, type Result } from '../../../server/errors/domain-error.js';
import type { Services, WatchSession } from '../../../server/api/services.js';
import { createGrpcEdge, type GrpcEdge } from '../../../server/api/grpc/server.js';
import { listenClient } from '../../../server/transport/client-listener.js';

export const header = (): pb.ResponseHeader => ({ clusterId: 1n, memberId: 2n, revision: 3n, raftTerm: 4n });

/** A complete message of type T: defaults for every field, then `fields`. */
export function msg<T>(fns: { fromJSON(o: unknown): T }, fields: Partial<T> = {}): T {
  return { ...fns.fromJSON({}), ...fields };
}

const resolved = <T>(value: T): Promise<Result<T>> => Promise.resolve(ok(value));

export interface WatchProbe {
  /** Every request any session received, in order. */
  readonly requests: pb.WatchRequest[];
  /** `send` of each opened session. */
  readonly sends: Array<(resp: pb.WatchResponse) => void>;
  closed: number;
}

export function fakeServices(): { services: Services; watch: WatchProbe } {
  const watch: WatchProbe = { requests: [], sends: [], closed: 0 };
  const services: Services = {
    kv: {
      range: () => resolved(msg(pb.RangeResponse, { header: header(), count: 0n })),
      put: () => resolved(msg(pb.PutResponse, { header: header() })),
      deleteRange: () => resolved(msg(pb.DeleteRangeResponse, { header: header() })),
      txn: () => resolved(msg(pb.TxnResponse, { header: header(), succeeded: true })),
      compact: () => resolved(msg(pb.CompactionResponse, { header: header() })),
    },
    watch: {
      openWatch(send): WatchSession {
        watch.sends.push(send);
        let nextId = 0n;
        let open = true;
        return {
          request(req) {
            watch.requests.push(req);
            if (open && req.requestUnion?.$case === 'createRequest') {
              send(msg(pb.WatchResponse, { header: header(), watchId: nextId++, created: true }));
            }
          },
          close() {
            if (open) watch.closed += 1;
            open = false;
          },
        };
      },
    },
    lease: {
      leaseGrant: (r) => resolved(msg(pb.LeaseGrantResponse, { header: header(), ID: r.ID || 7n, TTL: r.TTL })),
      leaseRevoke: () => resolved(msg(pb.LeaseRevokeResponse, { header: header() })),
      keepAlive: (r) => resolved(msg(pb.LeaseKeepAliveResponse, { header: header(), ID: r.ID, TTL: 10n })),
      leaseTimeToLive: (r) => resolved(msg(pb.LeaseTimeToLiveResponse, { header: header(), ID: r.ID, TTL: -1n })),
      leaseLeases: () => resolved(msg(pb.LeaseLeasesResponse, { header: header() })),
    },
    cluster: {
      memberAdd: () => resolved(msg(pb.MemberAddResponse, { header: header() })),
      memberRemove: () => resolved(msg(pb.MemberRemoveResponse, { header: header() })),
      memberUpdate: () => resolved(msg(pb.MemberUpdateResponse, { header: header() })),
      memberList: () => resolved(msg(pb.MemberListResponse, { header: header() })),
      memberPromote: () => resolved(msg(pb.MemberPromoteResponse, { header: header() })),
    },
    maintenance: {
      alarm: () => resolved(msg(pb.AlarmResponse, { header: header() })),
      status: () => resolved(msg(pb.StatusResponse, { header: header(), version: '3.4.0' })),
      defragment: () => resolved(msg(pb.DefragmentResponse, { header: header() })),
      hash: () => resolved(msg(pb.HashResponse, { header: header(), hash: 42 })),
      hashKV: () => resolved(msg(pb.HashKVResponse, { header: header(), hash: 43 })),
      snapshot: async function* () {
        yield msg(pb.SnapshotResponse, { header: header(), remainingBytes: 1n, blob: Buffer.from('a') });
        yield msg(pb.SnapshotResponse, { header: header(), remainingBytes: 0n, blob: Buffer.from('b') });
      },
      moveLeader: () => resolved(msg(pb.MoveLeaderResponse, { header: header() })),
    },
    info: {
      serverVersion: '3.4.0',
      clusterVersion: () => '3.4.0',
      health: () => Promise.resolve({ healthy: true, reason: '' }),
    },
  };
  return { services, watch };
}

export interface Harness {
  readonly address: string;
  readonly registry: Registry;
  readonly services: Services;
  readonly watch: WatchProbe;
  /** Flip to false to simulate a member without a leader. */
  leader: boolean;
  readonly creds: grpc.ChannelCredentials;
  close(): Promise<void>;
}

export const MAX_RECV_BYTES = 64 * 1024;

export type HarnessTransport = 'own' | 'grpc-js';

/** Starts the real gRPC server over fake services; `adjust` edits the services before the server is built. */
export async function startServer(adjust?: (services: Services) => void, transport: HarnessTransport = 'own'): Promise<Harness> {
  const { services, watch } = fakeServices();
  adjust?.(services);
  const registry = new Registry();
  const state = { leader: true };
  const edge = createGrpcEdge({
    services,
    maxRecvBytes: MAX_RECV_BYTES,
    registry,
    hasLeader: () => state.leader,
    logger: pino({ level: 'silent' }),
  });
  let port: number;
  let close: () => Promise<void>;
  if (transport === 'grpc-js') {
    const server = grpcJsReference(edge, MAX_RECV_BYTES);
    port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    close = () => new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  } else {
    const listener = await listenClient(new URL('http://127.0.0.1:0'), edge.h2, (_req, res) => void res.end(), pino({ level: 'silent' }), { closeGraceMs: 200 });
    port = listener.address.port;
    close = () => listener.close();
  }
  return {
    address: `127.0.0.1:${port}`,
    registry,
    services,
    watch,
    get leader() {
      return state.leader;
    },
    set leader(v: boolean) {
      state.leader = v;
    },
    creds: grpc.credentials.createInsecure(),
    close,
  };
}

/** Metadata asking for a leader, as clientv3.WithRequireLeader sends it. */
export function requireLeader(): grpc.Metadata {
  const md = new grpc.Metadata();
  md.set('hasleader', 'true');
  return md;
}

/** Calls a unary method described by its generated definition; resolves with the response or the ServiceError. */
export function call<Req, Res>(
  client: grpc.Client,
  def: { readonly path: string; requestSerialize(r: Req): Buffer; responseDeserialize(b: Buffer): Res },
  req: Req,
  md: grpc.Metadata = new grpc.Metadata(),
): Promise<{ error: grpc.ServiceError | null; response: Res | undefined }> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, req, md, (error, response) =>
      resolve({ error, response: error ? undefined : response }),
    );
  });
}

/** Resolves with the final status of a client stream. */
export function statusOf(stream: grpc.ClientDuplexStream<unknown, unknown> | grpc.ClientReadableStream<unknown>): Promise<grpc.StatusObject> {
  return new Promise((resolve) => stream.on('status', resolve));
}

/** Every message of a server stream and its final status. */
export function collectStream<T>(stream: grpc.ClientReadableStream<T>): Promise<{ chunks: T[]; status: grpc.StatusObject }> {
  const chunks: T[] = [];
  stream.on('data', (c: T) => chunks.push(c));
  stream.on('error', () => undefined);
  return statusOf(stream).then((status) => ({ chunks, status }));
}

/** Waits (polling each event-loop turn) until `cond` holds; the test runner's timeout bounds it. */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((resolve) => setImmediate(resolve));
}

/** Reads the value of one series of a counter in `registry`. */
export async function counterValue(registry: Registry, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return undefined;
  const { values } = await metric.get();
  const hit = values.find((v) => Object.entries(labels).every(([k, x]) => v.labels[k] === x));
  return hit?.value;
}

/**
 * The edge's very handlers on a real grpc-js server (not bound): the reference our own serving
 * is compared with. grpc-js is a client library of kvstore; its server appears in tests only.
 */
export function grpcJsReference(edge: GrpcEdge, maxRecvBytes: number): grpc.Server {
  const server = new grpc.Server({ 'grpc.max_receive_message_length': maxRecvBytes, 'grpc.enable_channelz': 0 });
  for (const { def, impl } of edge.services) server.addService(def, impl);
  return server;
}
