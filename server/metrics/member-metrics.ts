/**
 * The metrics one member fills (ETCD-FACTS §8.1–8.3, `kvstore_` prefix), registered on ONE
 * given registry together with Node's process metrics (`process_*`, `nodejs_*`).
 *
 * Contract:
 * - call once per registry (prom-client refuses duplicate names);
 * - names come from a table (metric-names.ts); pass MEMBER_METRIC_NAMES_35 (or any profile's
 *   table) to rename or drop names; handles are the same whatever the names;
 * - `server_version{server_version}` is 1 from creation; `setClusterVersion` keeps etcd's
 *   shape (1 for the current major.minor, 0 for the previous one); `setServerId` sets 1 for the
 *   hex member id (0 for a previous id);
 * - the mvcc counters and db size update both the `mvcc_` and the `debugging_mvcc_` metric
 *   (whichever of them the table exposes);
 * - `exposeNames(table)` changes which roles are visible at run time (a metric hidden by a
 *   `null` entry keeps counting and reappears with its value when shown again) — the member
 *   calls it when the cluster version changes, so names switch exactly then.
 */
import { collectDefaultMetrics, type Gauge, type Metric, type Registry } from 'prom-client';
import {
  counter,
  exponentialBuckets,
  fanCounter,
  fanGauge,
  gauge,
  histogram,
  histogramHandle,
  labeledGauge,
  latestGauge,
  tallyCounter,
  type CounterHandle,
  type GaugeHandle,
  type HistogramHandle,
} from './metric-handles.js';
import { MEMBER_METRIC_NAMES, type MemberMetricNames, type MemberMetricRole } from './metric-names.js';

export interface MemberMetrics {
  // server
  readonly hasLeader: GaugeHandle;
  readonly isLeader: GaugeHandle;
  readonly isLearner: GaugeHandle;
  readonly leaderChangesSeen: CounterHandle;
  /** A gauge in etcd: the raft committed index. */
  readonly proposalsCommitted: GaugeHandle;
  /** A gauge in etcd: the applied index. */
  readonly proposalsApplied: GaugeHandle;
  readonly proposalsPending: GaugeHandle;
  readonly proposalsFailed: CounterHandle;
  readonly quotaBackendBytes: GaugeHandle;
  readonly healthSuccess: CounterHandle;
  readonly healthFailures: CounterHandle;
  readonly slowApply: CounterHandle;
  readonly leaseExpired: CounterHandle;
  /** e.g. "3.4.0" or "3.4"; the label is major.minor. Ignores values without a major.minor. */
  setClusterVersion(version: string): void;
  /** Member id as etcd prints it (lower-case hex, no 0x). */
  setServerId(idHex: string): void;
  /** Shows the roles `names` exposes and hides those it maps to null (names themselves never change). */
  exposeNames(names: MemberMetricNames): void;
  // disk / WAL / snapshot
  readonly walFsyncDuration: HistogramHandle;
  /** A gauge in etcd, increased by the bytes written. */
  readonly walWriteBytes: GaugeHandle;
  readonly backendCommitDuration: HistogramHandle;
  readonly backendSnapshotDuration: HistogramHandle;
  readonly backendDefragDuration: HistogramHandle;
  readonly snapFsyncDuration: HistogramHandle;
  readonly snapDbFsyncDuration: HistogramHandle;
  readonly snapDbSaveDuration: HistogramHandle;
  // mvcc
  readonly dbTotalSize: GaugeHandle;
  readonly dbTotalSizeInUse: GaugeHandle;
  readonly put: CounterHandle;
  readonly delete: CounterHandle;
  readonly txn: CounterHandle;
  readonly range: CounterHandle;
  readonly keys: GaugeHandle;
  readonly watchStreams: GaugeHandle;
  readonly watchers: GaugeHandle;
  readonly slowWatchers: GaugeHandle;
  readonly events: CounterHandle;
  readonly pendingEvents: GaugeHandle;
  readonly currentRevision: GaugeHandle;
  readonly compactRevision: GaugeHandle;
  readonly leaseGranted: CounterHandle;
  readonly leaseRevoked: CounterHandle;
  readonly leaseRenewed: CounterHandle;
  /** The auth store's revision (set after each applied batch). */
  readonly authRevision: GaugeHandle;
  /** Serializable Ranges answered by the front-end thread (frontend/local-reads.ts). */
  readonly frontEndLocalReads: CounterHandle;
  /** Watch streams served by the front-end thread (frontend/local-watches.ts). */
  readonly frontEndLocalWatchStreams: CounterHandle;
}

export interface MemberMetricLabels {
  /** Full binary version, e.g. "3.4.45". */
  readonly serverVersion: string;
}

const HELP: { readonly [K in MemberMetricRole]: string } = {
  hasLeader: 'Whether or not a leader exists. 1 is existence, 0 is not.',
  isLeader: 'Whether or not this member is a leader. 1 if is, 0 otherwise.',
  isLearner: 'Whether or not this member is a learner. 1 if is, 0 otherwise.',
  leaderChangesSeen: 'The number of leader changes seen.',
  proposalsCommitted: 'The total number of consensus proposals committed.',
  proposalsApplied: 'The total number of consensus proposals applied.',
  proposalsPending: 'The current number of pending proposals to commit.',
  proposalsFailed: 'The total number of failed proposals seen.',
  serverVersion: 'Which version is running. 1 for \'server_version\' label with current version.',
  clusterVersion: 'Which version is running. 1 for \'cluster_version\' label with current cluster version',
  serverId: 'Server or member ID in hexadecimal format. 1 for \'server_id\' label with current ID.',
  quotaBackendBytes: 'Current backend storage quota size in bytes.',
  healthSuccess: 'The total number of successful health checks',
  healthFailures: 'The total number of failed health checks',
  slowApply: 'The total number of slow apply requests (likely overloaded from slow disk).',
  leaseExpired: 'The total number of expired leases.',
  walFsyncDuration: 'The latency distributions of fsync called by WAL.',
  walWriteBytes: 'Total number of bytes written in WAL.',
  backendCommitDuration: 'The latency distributions of commit called by backend.',
  backendSnapshotDuration: 'The latency distribution of backend snapshots.',
  backendDefragDuration: 'The latency distribution of backend defragmentation.',
  snapFsyncDuration: 'The latency distributions of fsync called by snap.',
  snapDbFsyncDuration: 'The latency distributions of fsyncing .snap.db file',
  snapDbSaveDuration: 'The total latency distributions of v3 snapshot save',
  dbTotalSize: 'Total size of the underlying database physically allocated in bytes.',
  dbTotalSizeInUse: 'Total size of the underlying database logically in use in bytes.',
  put: 'Total number of puts seen by this member.',
  delete: 'Total number of deletes seen by this member.',
  txn: 'Total number of txns seen by this member.',
  range: 'Total number of ranges seen by this member.',
  debuggingDbTotalSize: 'Total size of the underlying database physically allocated in bytes.',
  debuggingPut: 'Total number of puts seen by this member.',
  debuggingDelete: 'Total number of deletes seen by this member.',
  debuggingTxn: 'Total number of txns seen by this member.',
  debuggingRange: 'Total number of ranges seen by this member.',
  keys: 'Total number of keys.',
  watchStreams: 'Total number of watch streams.',
  watchers: 'Total number of watchers.',
  slowWatchers: 'Total number of unsynced slow watchers.',
  events: 'Total number of events sent by this member.',
  pendingEvents: 'Total number of pending events to be sent.',
  currentRevision: 'The current revision of store.',
  compactRevision: 'The revision of the last compaction in store.',
  leaseGranted: 'The total number of granted leases.',
  leaseRevoked: 'The total number of revoked leases.',
  leaseRenewed: 'The number of renewed leases seen by the leader.',
  authRevision: 'The current revision of auth store.',
  frontEndLocalReads: 'Serializable ranges answered by the client front-end thread from its read replica.',
  frontEndLocalWatchStreams: 'Watch streams served by the client front-end thread from its read replica.',
};

const MS_BUCKETS = exponentialBuckets(0.001, 2, 14); // 0.001 … 8.192 s

export function createMemberMetrics(
  registry: Registry,
  labels: MemberMetricLabels,
  names: MemberMetricNames = MEMBER_METRIC_NAMES,
): MemberMetrics {
  collectDefaultMetrics({ register: registry });
  // Every role is created under its full name; `visibility` then shows the ones `names` exposes.
  const visibility = new MetricVisibility(registry);
  const spec = (role: MemberMetricRole) => ({ registry, role, name: MEMBER_METRIC_NAMES[role], help: HELP[role] });
  const c = (role: MemberMetricRole) => visibility.track(role, counter(spec(role)));
  const g = (role: MemberMetricRole) => visibility.track(role, gauge(spec(role)));
  // Updated per request or per applied batch: plain numbers, copied into prom-client on scrape.
  const tc = (role: MemberMetricRole): CounterHandle => {
    const t = tallyCounter(spec(role));
    visibility.track(role, t.metric);
    return t.handle;
  };
  const lg = (role: MemberMetricRole): GaugeHandle => {
    const t = latestGauge(spec(role));
    visibility.track(role, t.metric);
    return t.handle;
  };
  const h = (role: MemberMetricRole, buckets: readonly number[]) => histogramHandle(visibility.track(role, histogram(spec(role), buckets)));

  const serverVersion = visibility.track('serverVersion', labeledGauge(spec('serverVersion'), ['server_version']));
  serverVersion.set({ server_version: labels.serverVersion }, 1);
  const clusterVersion = visibility.track('clusterVersion', labeledGauge(spec('clusterVersion'), ['cluster_version']));
  const serverId = visibility.track('serverId', labeledGauge(spec('serverId'), ['server_id']));

  const handles: Omit<MemberMetrics, 'exposeNames'> = {
    hasLeader: g('hasLeader'),
    isLeader: g('isLeader'),
    isLearner: g('isLearner'),
    leaderChangesSeen: c('leaderChangesSeen'),
    proposalsCommitted: lg('proposalsCommitted'),
    proposalsApplied: lg('proposalsApplied'),
    proposalsPending: g('proposalsPending'),
    proposalsFailed: c('proposalsFailed'),
    quotaBackendBytes: g('quotaBackendBytes'),
    healthSuccess: c('healthSuccess'),
    healthFailures: c('healthFailures'),
    slowApply: c('slowApply'),
    leaseExpired: c('leaseExpired'),
    setClusterVersion: oneHot(clusterVersion, 'cluster_version', majorMinor),
    setServerId: oneHot(serverId, 'server_id', (id) => id),

    walFsyncDuration: h('walFsyncDuration', MS_BUCKETS),
    walWriteBytes: g('walWriteBytes'),
    backendCommitDuration: h('backendCommitDuration', MS_BUCKETS),
    backendSnapshotDuration: h('backendSnapshotDuration', exponentialBuckets(0.01, 2, 17)),
    backendDefragDuration: h('backendDefragDuration', exponentialBuckets(0.1, 2, 13)),
    snapFsyncDuration: h('snapFsyncDuration', MS_BUCKETS),
    snapDbFsyncDuration: h('snapDbFsyncDuration', MS_BUCKETS),
    snapDbSaveDuration: h('snapDbSaveDuration', exponentialBuckets(0.1, 2, 10)),

    dbTotalSize: fanGauge(g('dbTotalSize'), g('debuggingDbTotalSize')),
    dbTotalSizeInUse: g('dbTotalSizeInUse'),
    put: fanCounter(tc('put'), tc('debuggingPut')),
    delete: fanCounter(tc('delete'), tc('debuggingDelete')),
    txn: fanCounter(tc('txn'), tc('debuggingTxn')),
    range: fanCounter(tc('range'), tc('debuggingRange')),
    keys: lg('keys'),
    watchStreams: g('watchStreams'),
    watchers: g('watchers'),
    slowWatchers: g('slowWatchers'),
    events: tc('events'),
    pendingEvents: g('pendingEvents'),
    currentRevision: lg('currentRevision'),
    compactRevision: lg('compactRevision'),
    leaseGranted: c('leaseGranted'),
    leaseRevoked: c('leaseRevoked'),
    leaseRenewed: c('leaseRenewed'),
    authRevision: lg('authRevision'),
    frontEndLocalReads: tc('frontEndLocalReads'),
    frontEndLocalWatchStreams: tc('frontEndLocalWatchStreams'),
  };
  visibility.expose(names);
  return { ...handles, exposeNames: (table) => visibility.expose(table) };
}

/** Which of the created metrics the registry shows, by role. */
class MetricVisibility {
  private readonly metrics = new Map<MemberMetricRole, Metric>();
  private readonly shown = new Set<MemberMetricRole>();

  constructor(private readonly registry: Registry) {}

  /** Records a metric created on the registry (it starts shown). */
  track<M extends Metric>(role: MemberMetricRole, metric: M): M {
    this.metrics.set(role, metric);
    this.shown.add(role);
    return metric;
  }

  expose(names: MemberMetricNames): void {
    for (const [role, metric] of this.metrics) {
      const show = names[role] !== null;
      if (show === this.shown.has(role)) continue;
      if (show) {
        this.registry.registerMetric(metric);
        this.shown.add(role);
      } else {
        this.registry.removeSingleMetric(MEMBER_METRIC_NAMES[role]);
        this.shown.delete(role);
      }
    }
  }
}

/** "3.4.0" → "3.4"; undefined when the text has no major.minor (e.g. "not_decided"). */
export function majorMinor(version: string): string | undefined {
  const m = /^(\d+)\.(\d+)(?:\.|$)/.exec(version);
  return m ? `${m[1]}.${m[2]}` : undefined;
}

/** Setter keeping one label value at 1 and the previous one at 0. */
function oneHot<L extends string>(
  metric: Gauge<L>,
  label: L,
  toLabel: (v: string) => string | undefined,
): (value: string) => void {
  let current: string | undefined;
  return (value) => {
    const next = toLabel(value);
    if (next === undefined || next === current) return;
    if (current !== undefined) metric.set({ [label]: current } as Partial<Record<L, string>>, 0);
    metric.set({ [label]: next } as Partial<Record<L, string>>, 1);
    current = next;
  };
}
