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
import type { MemberMetrics } from '../metrics/member-metrics.js';
import type { WatchStats } from '../watch/types.js';

/** The thread's options, minus the callbacks (made here), plus where the counts go. */
export type FrontEndLocalDeps = Omit<NonNullable<FrontEndOptions['local']>, 'onServed' | 'onWatchReport'> & {
  readonly grpcMetrics: GrpcMetrics;
  readonly metrics: Pick<MemberMetrics, 'range' | 'frontEndLocalReads' | 'frontEndLocalWatchStreams'>;
};

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
