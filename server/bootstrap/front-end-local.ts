/**
 * The core's side of what a front-end thread serves itself (frontend/local-reads.ts,
 * frontend/local-watches.ts): the store its read replica follows, the context it answers
 * with (header fields, auth, leader, learner), the same limits as the core's own calls, and
 * where the thread's counts go — the member's gRPC, range and watch metrics, as if the core
 * had served those calls. The thread's watch gauges are kept here for the member's refresh
 * of its own (`watchStats`).
 */
import { KVService, WatchService } from '../../proto/gen/etcd/rpc.js';
import type { GrpcMetrics } from '../api/grpc/metrics.js';
import type { FrontEndOptions } from '../frontend/front-end.js';
import type { ReplicaSource } from '../frontend/replica-feed.js';
import type { ReplicaContext } from '../frontend/replica-records.js';
import type { MemberMetrics } from '../metrics/member-metrics.js';
import type { WatchStats } from '../watch/types.js';

export interface FrontEndLocalDeps {
  readonly store: ReplicaSource;
  /** The backend database the thread opens too. */
  readonly location: string;
  readonly context: () => ReplicaContext;
  readonly maxRecvBytes: number;
  readonly maxSendBytes: number;
  readonly maxEventBytes: number;
  readonly progressIntervalMs: number;
  readonly electionTimeoutMs: number;
  readonly grpcMetrics: GrpcMetrics;
  readonly metrics: Pick<MemberMetrics, 'range' | 'frontEndLocalReads' | 'frontEndLocalWatchStreams'>;
}

export interface FrontEndLocal {
  readonly options: NonNullable<FrontEndOptions['local']>;
  /** The gauges of the watch streams the thread serves, as last reported. */
  watchStats(): WatchStats;
}

export function frontEndLocal(d: FrontEndLocalDeps): FrontEndLocal {
  let stats: WatchStats = { streams: 0, watchers: 0, slowWatchers: 0, pendingEvents: 0 };
  const { grpcMetrics, metrics, ...rest } = d;
  return {
    options: {
      ...rest,
      onServed: (n) => {
        grpcMetrics.method(KVService.range).servedOk(n);
        metrics.range.inc(n);
        metrics.frontEndLocalReads.inc(n);
      },
      onWatchReport: (r) => {
        grpcMetrics.method(WatchService.watch).add(r.started, r.received, r.sent, r.handled);
        metrics.frontEndLocalWatchStreams.inc(r.started);
        stats = r.stats;
      },
    },
    watchStats: () => stats,
  };
}
