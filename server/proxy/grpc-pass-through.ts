/**
 * The gRPC proxy's core: every method of etcd's v3 services (KV, Watch, Lease, Cluster,
 * Maintenance, Auth, Lock, Election) served by forwarding the call, as raw message bytes, to
 * a member. Nothing is decoded: requests and replies pass as they are, with the caller's
 * metadata (its auth token, `hasleader`), its deadline and its cancellation; the member's
 * status (code, message, trailers) comes back unchanged. Streams keep back-pressure in both
 * directions (a write that fills the other side pauses the source until it drains).
 *
 * Only grpc-js's public API is used: a service definition whose (de)serializers are the
 * identity, and the generic `Client.make*Request` calls.
 */
import * as grpc from '@grpc/grpc-js';
import { ElectionService } from '../../proto/gen/etcd/election.js';
import { LockService } from '../../proto/gen/etcd/lock.js';
import { AuthService, ClusterService, KVService, LeaseService, MaintenanceService, MemberListResponse, WatchService } from '../../proto/gen/etcd/rpc.js';

/** The services forwarded, as generated (paths and stream kinds are read from them). */
const SERVICES = [KVService, WatchService, LeaseService, ClusterService, MaintenanceService, AuthService, LockService, ElectionService] as const;

const identity = (b: Buffer): Buffer => b;

/** Metadata a hop must not pass on: the transport's own headers. */
const HOP_HEADERS = new Set(['user-agent', 'content-type', 'te', 'grpc-timeout', 'grpc-encoding', 'grpc-accept-encoding', 'host']);

export function forwardable(md: grpc.Metadata): grpc.Metadata {
  const out = new grpc.Metadata();
  for (const key of Object.keys(md.getMap())) {
    if (HOP_HEADERS.has(key) || key.startsWith(':')) continue;
    for (const v of md.get(key)) out.add(key, v);
  }
  return out;
}

/** Picks the member a new call goes to. */
export type Upstream = () => grpc.Client;

interface RawMethod {
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
}

function methodsOf(service: Record<string, { path: string; requestStream: boolean; responseStream: boolean }>): Array<[string, RawMethod]> {
  return Object.entries(service).map(([name, m]) => [name, { path: m.path, requestStream: m.requestStream, responseStream: m.responseStream }]);
}

function callOptions(call: { getDeadline(): grpc.Deadline }): grpc.CallOptions {
  const deadline = call.getDeadline();
  return deadline === Infinity ? {} : { deadline };
}

/** A status for the caller from what the member's side reported. */
export function asStatus(err: grpc.ServiceError | Error): grpc.StatusObject {
  const e = err as Partial<grpc.ServiceError>;
  return { code: e.code ?? grpc.status.UNAVAILABLE, details: e.details ?? err.message, metadata: e.metadata ?? new grpc.Metadata() };
}

/** Pipes `from` into `to` with back-pressure; `onEnd` after the last message. */
function pump(from: NodeJS.ReadableStream & { pause(): void; resume(): void }, to: { write(b: Buffer): boolean; once(e: 'drain', f: () => void): unknown }, onEnd: () => void): void {
  from.on('data', (b: Buffer) => {
    if (!to.write(b)) {
      from.pause();
      to.once('drain', () => from.resume());
    }
  });
  from.on('end', onEnd);
}

function handlerFor(m: RawMethod, upstream: Upstream): grpc.UntypedHandleCall {
  if (!m.requestStream && !m.responseStream) {
    return ((call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      const out = upstream().makeUnaryRequest(m.path, identity, identity, call.request, forwardable(call.metadata), callOptions(call), (err, reply) => {
        if (err) callback(asStatus(err));
        else callback(null, reply);
      });
      call.on('cancelled', () => out.cancel());
    }) as grpc.handleUnaryCall<Buffer, Buffer>;
  }
  if (!m.requestStream) {
    return ((call: grpc.ServerWritableStream<Buffer, Buffer>) => {
      const out = upstream().makeServerStreamRequest(m.path, identity, identity, call.request, forwardable(call.metadata), callOptions(call));
      out.on('error', (err: grpc.ServiceError) => {
        if (err.code !== grpc.status.CANCELLED || !call.cancelled) call.emit('error', asStatus(err));
      });
      pump(out, call, () => call.end());
      call.on('cancelled', () => out.cancel());
    }) as grpc.handleServerStreamingCall<Buffer, Buffer>;
  }
  if (!m.responseStream) {
    return ((call: grpc.ServerReadableStream<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
      const out = upstream().makeClientStreamRequest(m.path, identity, identity, forwardable(call.metadata), callOptions(call), (err, reply) => {
        if (err) callback(asStatus(err));
        else callback(null, reply);
      });
      pump(call, out, () => out.end());
      call.on('cancelled', () => out.cancel());
    }) as grpc.handleClientStreamingCall<Buffer, Buffer>;
  }
  return ((call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
    const out = upstream().makeBidiStreamRequest(m.path, identity, identity, forwardable(call.metadata), callOptions(call));
    out.on('error', (err: grpc.ServiceError) => {
      if (err.code !== grpc.status.CANCELLED || !call.cancelled) call.emit('error', asStatus(err));
    });
    pump(out, call, () => call.end());
    pump(call, out, () => out.end());
    call.on('cancelled', () => out.cancel());
  }) as grpc.handleBidiStreamingCall<Buffer, Buffer>;
}

/** How the proxy shows itself to a client that lists the members (etcd's proxy lists itself, not the cluster). */
export interface ProxyIdentity {
  readonly name: string;
  readonly advertiseClientUrl: string;
}

/** MemberList through a proxy: the proxy itself, id 0, no peer URLs, its advertised client URL. */
function selfMemberList(me: ProxyIdentity): grpc.handleUnaryCall<Buffer, Buffer> {
  const reply = Buffer.from(
    MemberListResponse.encode({ header: undefined, members: [{ ID: 0n, name: me.name, peerURLs: [], clientURLs: [me.advertiseClientUrl], isLearner: false }] }).finish(),
  );
  return (_call, callback) => callback(null, reply);
}

/** Adds every forwarded service to `server`, each call going to `upstream()`; `served` replaces the handler of the methods it names (by path). */
export function addPassThrough(server: grpc.Server, upstream: Upstream, me: ProxyIdentity, served: Readonly<Record<string, grpc.UntypedHandleCall>> = {}): void {
  for (const service of SERVICES) {
    const definition: Record<string, grpc.MethodDefinition<Buffer, Buffer>> = {};
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const [name, m] of methodsOf(service as unknown as Record<string, RawMethod>)) {
      definition[name] = {
        path: m.path,
        requestStream: m.requestStream,
        responseStream: m.responseStream,
        requestSerialize: identity,
        requestDeserialize: identity,
        responseSerialize: identity,
        responseDeserialize: identity,
      };
      implementation[name] = served[m.path] ?? (m.path === ClusterService.memberList.path ? selfMemberList(me) : handlerFor(m, upstream));
    }
    server.addService(definition as grpc.ServiceDefinition, implementation);
  }
}
