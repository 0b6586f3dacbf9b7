/**
 * The client-facing gRPC edge: every etcd service adapted to its handlers and served on the
 * client port's own HTTP/2 framing (h2-serving.ts, h2-calls.ts).
 *
 * Registered (ETCD-FACTS §0): etcdserverpb.{KV,Watch,Lease,Cluster,Maintenance,Auth},
 * v3lockpb.Lock, v3electionpb.Election, grpc.health.v1.Health. Lock and Election run etcd's
 * recipes on the member's own services (lock.ts, election.ts); Maintenance.Downgrade answers
 * Unimplemented for now (Auth too when no auth service is given).
 *
 * Limits: max receive = `maxRecvBytes` (etcd: max-request-bytes + 512 KiB; a larger message is
 * refused with ResourceExhausted), max send 2^31−1.
 *
 * The handlers are grpc-js handlers by shape (`handleUnaryCall`, `ServerDuplexStream`…): the
 * edge gives them call objects of that shape, and `services` lists every service with its
 * handlers so that a test can serve the very same handlers on a real grpc-js server and compare
 * (test/unit/grpc/harness.ts).
 *
 * Every request deserializer is guarded (decode-guard.ts), so a frame that does not decode
 * ends that call with a clean Internal status and never reaches a service.
 */
import type * as grpc from '@grpc/grpc-js';
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
import { electionHandlers } from './election.js';
import { lockHandlers } from './lock.js';
import type { EdgeContext } from './context.js';
import { guardDecoding } from './decode-guard.js';
import { healthHandlers } from './health.js';
import { kvHandlers } from './kv.js';
import { NoLeaderMonitor, type Scheduler } from './leader-monitor.js';
import { leaseHandlers } from './lease.js';
import { maintenanceHandlers, maintenanceService, maintenanceStreams } from './maintenance.js';
import { createGrpcMetrics, type GrpcMetrics } from './metrics.js';
import { replyFramers } from './framed-replies.js';
import type { H2Serving } from '../../transport/h2/h2-serving.js';
import { createH2Serving } from './h2-serving.js';
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

/** One service with its handlers, as served. */
export interface RegisteredService {
  readonly def: grpc.ServiceDefinition;
  readonly impl: grpc.UntypedServiceImplementation;
}

export interface GrpcEdge {
  /** What the client port hands its HTTP/2 connections to. */
  readonly h2: H2Serving;
  /** Every service with its handlers (request deserializers guarded). */
  readonly services: readonly RegisteredService[];
  /** Counts a fault of a call on `path` served elsewhere (a front-end thread); unknown paths count as `other`. */
  countFault(path: string): void;
}

/** The gRPC receive limit for a given `max-request-bytes` (default 1.5 MiB → 2 MiB). */
export function maxRecvBytesFor(maxRequestBytes: number): number {
  return maxRequestBytes + RECV_OVERHEAD_BYTES;
}

export function createGrpcEdge(options: GrpcServerOptions): GrpcEdge {
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
  const methods = new Map<string, ServedMethod>();
  const registered: RegisteredService[] = [];
  const add = (def: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void => {
    const guarded = guardDecoding(def);
    registered.push({ def: guarded, impl });
    addService(methods, guarded, impl);
  };

  add(KVService, kvHandlers(ctx, services.kv));
  add(WatchService, watchHandlers(ctx, services.watch));
  add(LeaseService, leaseHandlers(ctx, services.lease));
  add(ClusterService, clusterHandlers(ctx, services.cluster));
  add(maintenanceService, maintenanceHandlers(ctx, services.maintenance));
  add(AuthService, authHandlers(ctx, services.auth));
  add(LockService, lockHandlers(ctx, services));
  add(ElectionService, electionHandlers(ctx, services));
  add(HealthService, healthHandlers(ctx));
  const h2 = createH2Serving(
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
  return { h2, services: registered, countFault: (path) => ctx.metrics.clientFault('grpc', methods.has(path) ? path : 'other') };
}
