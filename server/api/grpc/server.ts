/**
 * The client-facing gRPC server: every etcd service adapted onto grpc-js.
 *
 * Registered (ETCD-FACTS §0): etcdserverpb.{KV,Watch,Lease,Cluster,Maintenance,Auth},
 * v3lockpb.Lock, v3electionpb.Election, grpc.health.v1.Health. Lock, Election and
 * Maintenance.Downgrade answer Unimplemented for now (Auth too when no auth service is given).
 *
 * Transport settings: max receive = `maxRecvBytes` (etcd: max-request-bytes + 512 KiB;
 * a larger frame is refused by grpc-js with ResourceExhausted), max send 2^31−1, max
 * concurrent streams 2^32−1, server keepalive ping every 2 h with a 20 s timeout, channelz
 * off. Client-ping enforcement (min 5 s, none without streams) is not offered by grpc-js.
 *
 * Two servers of the same handlers: every call on our own HTTP/2 framing is answered on its
 * stream (h2-calls.ts, through `h2ServingOf`, which the client port uses: one owner per
 * stream); with `KVSTORE_GRPC_HTTP2=node` connections are injected into the grpc-js server,
 * which serves them through its public API alone.
 *
 * Every request deserializer is guarded (decode-guard.ts), so a frame that does not decode
 * ends that call with a clean Internal status and never reaches a service.
 *
 * The returned server is not bound: the caller binds it (`bindAsync`) or injects
 * connections (`createConnectionInjector`), and shuts it down.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { ElectionService } from '../../../proto/gen/etcd/election.js';
import { HealthService } from '../../../proto/gen/etcd/health.js';
import { LockService } from '../../../proto/gen/etcd/lock.js';
import {
  AuthService,
  ClusterService,
  KVService,
  LeaseService,
  WatchService,
} from '../../../proto/gen/etcd/rpc.js';
import type { AuthGate } from '../../auth/gate.js';
import type { Services } from '../services.js';
import { authHandlers } from './auth.js';
import { clusterHandlers } from './cluster.js';
import { electionHandlers, lockHandlers } from './concurrency.js';
import type { EdgeContext } from './context.js';
import { guardDecoding } from './decode-guard.js';
import { healthHandlers } from './health.js';
import { kvHandlers } from './kv.js';
import { NoLeaderMonitor, type Scheduler } from './leader-monitor.js';
import { leaseHandlers } from './lease.js';
import { maintenanceHandlers, maintenanceService, maintenanceStreams } from './maintenance.js';
import { createGrpcMetrics, type GrpcMetrics } from './metrics.js';
import { replyFramers } from './framed-replies.js';
import { rememberH2Serving } from './h2-serving.js';
import { addService, type ServedMethod } from './method-table.js';
import { watchHandlers } from './watch.js';

export interface GrpcServerOptions {
  readonly services: Services;
  /** Largest request frame accepted, in bytes (etcd: max-request-bytes + 512 KiB). */
  readonly maxRecvBytes: number;
  /** Receives the grpc_server_* counters; one gRPC server per registry. */
  readonly registry: Registry;
  /** The counters themselves, when the caller counts calls served elsewhere too (default: made on `registry`). */
  readonly metrics?: GrpcMetrics;
  /** Whether this member currently knows a leader (for `hasleader: true` calls). */
  readonly hasLeader: () => boolean;
  /** Whether this member is a learner (default: never). */
  readonly isLearner?: () => boolean;
  /** Largest response sent, in bytes (default 2^31 − 1). */
  readonly maxSendBytes?: number;
  /** Whether the cluster version enables a method (default: all). */
  readonly capable?: (path: string) => boolean;
  /**
   * The member's election timeout in ms (default 1000, etcd's default): require-leader
   * streams are cancelled after 3 of them without a leader.
   */
  readonly electionTimeoutMs?: number;
  /** Clock of the no-leader monitor (default: real intervals). */
  readonly scheduler?: Scheduler;
  readonly logger: Logger;
  /** Auth checks of every call while auth is enabled (default: none). */
  readonly auth?: AuthGate;
}

const DEFAULT_ELECTION_TIMEOUT_MS = 1000;

const MAX_SEND_BYTES = 2 ** 31 - 1;
/** Headroom etcd adds to max-request-bytes for the gRPC receive limit. */
const RECV_OVERHEAD_BYTES = 512 * 1024;
const MAX_CONCURRENT_STREAMS = 2 ** 32 - 1;
const KEEPALIVE_TIME_MS = 2 * 60 * 60 * 1000;
const KEEPALIVE_TIMEOUT_MS = 20 * 1000;

/** The gRPC receive limit for a given `max-request-bytes` (default 1.5 MiB → 2 MiB). */
export function maxRecvBytesFor(maxRequestBytes: number): number {
  return maxRequestBytes + RECV_OVERHEAD_BYTES;
}

/** grpc-js server options for the client listener. */
export function grpcServerChannelOptions(maxRecvBytes: number, maxSendBytes: number = MAX_SEND_BYTES): grpc.ServerOptions {
  return {
    'grpc.max_receive_message_length': maxRecvBytes,
    'grpc.max_send_message_length': maxSendBytes,
    'grpc.max_concurrent_streams': MAX_CONCURRENT_STREAMS,
    'grpc.keepalive_time_ms': KEEPALIVE_TIME_MS,
    'grpc.keepalive_timeout_ms': KEEPALIVE_TIMEOUT_MS,
    'grpc.enable_channelz': 0,
  };
}

export function createGrpcServer(options: GrpcServerOptions): grpc.Server {
  const { services } = options;
  const ctx: EdgeContext = {
    hasLeader: options.hasLeader,
    isLearner: options.isLearner ?? (() => false),
    capable: options.capable ?? (() => true),
    logger: options.logger.child({ component: 'grpc' }),
    metrics: options.metrics ?? createGrpcMetrics(options.registry),
    noLeader: new NoLeaderMonitor(options.hasLeader, options.electionTimeoutMs ?? DEFAULT_ELECTION_TIMEOUT_MS, options.scheduler),
    auth: options.auth,
  };
  const server = new grpc.Server(grpcServerChannelOptions(options.maxRecvBytes, options.maxSendBytes));
  const methods = new Map<string, ServedMethod>();
  const add = (def: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void => {
    const guarded = guardDecoding(def);
    server.addService(guarded, impl);
    addService(methods, guarded, impl);
  };

  add(KVService, kvHandlers(ctx, services.kv));
  add(WatchService, watchHandlers(ctx, services.watch));
  add(LeaseService, leaseHandlers(ctx, services.lease));
  add(ClusterService, clusterHandlers(ctx, services.cluster));
  add(maintenanceService, maintenanceHandlers(ctx, services.maintenance));
  add(AuthService, authHandlers(ctx, services.auth));
  add(LockService, lockHandlers(ctx));
  add(ElectionService, electionHandlers(ctx));
  add(HealthService, healthHandlers(ctx));
  rememberH2Serving(
    server,
    {
      methods,
      maxRecvBytes: options.maxRecvBytes,
      maxSendBytes: options.maxSendBytes ?? MAX_SEND_BYTES,
      framers: replyFramers(),
      streams: maintenanceStreams(ctx, services.maintenance),
    },
    ctx.logger,
    ctx.metrics,
  );
  return server;
}
