/**
 * The operator's Prometheus metrics, registered in the Registry passed in (never the default
 * one), all prefixed `kvstore_operator_`:
 *
 * | metric | type | labels |
 * |---|---|---|
 * | upgrades_started_total, upgrades_completed_total, upgrades_blocked_total | counter | namespace, cluster |
 * | member_upgrade_duration_seconds | histogram | namespace, cluster |
 * | reconcile_errors_total | counter | namespace, cluster |
 * | reconcile_duration_seconds | histogram | namespace, cluster |
 * | work_queue_depth | gauge | — |
 * | is_leader | gauge (1/0) | — |
 * | backup_total, backup_duration_seconds, backup_last_success_timestamp_seconds, backup_bytes | backup-metrics.ts | namespace, cluster (+ result) |
 * | api_requests_total | api-request-metrics.ts | namespace, cluster, verb, resource |
 *
 * `OperatorMetrics` is the typed port the rest of the operator calls; it fits the engine's
 * `EngineMetrics` (operator/controller/ports.ts). Clusters are named by their key
 * `<namespace>/<name>` (local mode: `/<name>`), split into the two labels.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { BackupMetric } from '../controller/ports.js';
import { createApiRequestSeries } from './api-request-metrics.js';
import { createBackupSeries } from './backup-metrics.js';

export const METRIC_PREFIX = 'kvstore_operator_';

const LABELS = ['namespace', 'cluster'] as const;
type Labels = Record<(typeof LABELS)[number], string>;

/** `<namespace>/<name>` → labels (no slash: namespace ''). */
export function clusterLabels(key: string): Labels {
  const slash = key.indexOf('/');
  return slash < 0 ? { namespace: '', cluster: key } : { namespace: key.slice(0, slash), cluster: key.slice(slash + 1) };
}

export interface OperatorMetrics {
  upgradeStarted(cluster: string): void;
  upgradeCompleted(cluster: string): void;
  upgradeBlocked(cluster: string): void;
  memberUpgradeDuration(cluster: string, seconds: number): void;
  reconcileError(cluster: string): void;
  backupFinished(cluster: string, result: BackupMetric): void;
  reconcileDuration(cluster: string, seconds: number): void;
  setQueueDepth(depth: number): void;
  setLeader(leading: boolean): void;
  /** One Kubernetes API request made for `cluster` ('' for none: leader election, informers). */
  apiRequest(cluster: string, verb: string, resource: string): void;
  /** Drops the series of a deleted cluster. */
  forgetCluster(cluster: string): void;
}

export function createOperatorMetrics(registry: Registry): OperatorMetrics {
  const registers = [registry];
  const counter = (name: string, help: string) => new Counter({ name: METRIC_PREFIX + name, help, labelNames: LABELS, registers });
  const started = counter('upgrades_started_total', 'Rolling upgrades started.');
  const completed = counter('upgrades_completed_total', 'Rolling upgrades completed (every member and the cluster version on the new version).');
  const blocked = counter('upgrades_blocked_total', 'Upgrades refused or stopped (UpgradeBlocked: invalid path, failed snapshot, downgrade after completion).');
  const errors = counter('reconcile_errors_total', 'Reconcile passes that failed (observe, an action, or the status write).');
  const memberDuration = new Histogram({
    name: `${METRIC_PREFIX}member_upgrade_duration_seconds`,
    help: 'Time from deleting a member for its upgrade until it runs the new version and is healthy.',
    labelNames: LABELS,
    buckets: [5, 10, 20, 30, 60, 120, 180, 300, 600, 1200],
    registers,
  });
  const reconcile = new Histogram({
    name: `${METRIC_PREFIX}reconcile_duration_seconds`,
    help: 'Duration of one reconcile pass (observe, decide, act, write status).',
    labelNames: LABELS,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const depth = new Gauge({ name: `${METRIC_PREFIX}work_queue_depth`, help: 'Clusters waiting in the work queue.', registers });
  const leader = new Gauge({ name: `${METRIC_PREFIX}is_leader`, help: 'Whether this operator instance holds the leader Lease (1) or not (0).', registers });
  leader.set(0);
  depth.set(0);
  const backups = createBackupSeries(registry, METRIC_PREFIX);
  const requests = createApiRequestSeries(registry, METRIC_PREFIX);
  const perCluster = [started, completed, blocked, errors, memberDuration, reconcile];
  return {
    upgradeStarted: (c) => started.inc(clusterLabels(c)),
    upgradeCompleted: (c) => completed.inc(clusterLabels(c)),
    upgradeBlocked: (c) => blocked.inc(clusterLabels(c)),
    memberUpgradeDuration: (c, s) => memberDuration.observe(clusterLabels(c), s),
    reconcileError: (c) => errors.inc(clusterLabels(c)),
    backupFinished: (c, r) => backups.backupFinished(clusterLabels(c), r),
    reconcileDuration: (c, s) => reconcile.observe(clusterLabels(c), s),
    setQueueDepth: (d) => depth.set(d),
    setLeader: (l) => leader.set(l ? 1 : 0),
    apiRequest: (c, verb, resource) => requests.apiRequest(clusterLabels(c), verb, resource),
    forgetCluster: (c) => {
      for (const m of perCluster) m.remove(clusterLabels(c));
      backups.forget(clusterLabels(c));
      requests.forget(clusterLabels(c));
    },
  };
}
