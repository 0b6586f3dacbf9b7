/**
 * Local mode's metrics: the engine's counters kept in memory (the exit summary, tests) and,
 * when a metrics address is given, the same `kvstore_operator_*` series as on Kubernetes in a
 * prom-client Registry served with /healthz, /readyz and /metrics (health-server.ts).
 */
import { Registry } from 'prom-client';
import type { BackupMetric, EngineMetrics } from '../../controller/ports.js';
import { startHealthServer, type HealthServer } from '../health-server.js';
import { createOperatorMetrics, type OperatorMetrics } from '../metrics.js';
import { CountingMetrics } from './local-sinks.js';

/** Feeds every engine metric to both sinks. */
class TeeMetrics implements EngineMetrics {
  constructor(
    private readonly counts: CountingMetrics,
    private readonly series: OperatorMetrics,
  ) {}
  upgradeStarted(cluster: string): void {
    this.counts.upgradeStarted();
    this.series.upgradeStarted(cluster);
  }
  upgradeCompleted(cluster: string): void {
    this.counts.upgradeCompleted();
    this.series.upgradeCompleted(cluster);
  }
  upgradeBlocked(cluster: string): void {
    this.counts.upgradeBlocked();
    this.series.upgradeBlocked(cluster);
  }
  memberUpgradeDuration(cluster: string, seconds: number): void {
    this.counts.memberUpgradeDuration(cluster, seconds);
    this.series.memberUpgradeDuration(cluster, seconds);
  }
  reconcileError(cluster: string): void {
    this.counts.reconcileError();
    this.series.reconcileError(cluster);
  }
  backupFinished(cluster: string, result: BackupMetric): void {
    this.counts.backupFinished(cluster, result);
    this.series.backupFinished(cluster, result);
  }
}

export interface LocalMetrics {
  readonly counting: CountingMetrics;
  /** What the engine reports to. */
  readonly engine: EngineMetrics;
  /** One reconcile pass took `seconds` (a series only; no counter). */
  reconcileDuration(cluster: string, seconds: number): void;
  /** The listener's base URL, when one runs. */
  readonly url: string | undefined;
  close(): Promise<void>;
}

/** Counters only, or counters and a listener on `bind` (host, port; port 0 picks one). */
export async function createLocalMetrics(bind: { readonly host: string; readonly port: number } | undefined): Promise<LocalMetrics> {
  const counting = new CountingMetrics();
  if (bind === undefined) {
    return { counting, engine: counting, reconcileDuration: () => undefined, url: undefined, close: () => Promise.resolve() };
  }
  const registry = new Registry();
  const series = createOperatorMetrics(registry);
  series.setLeader(true); // one operator per file: it always leads
  const server: HealthServer = await startHealthServer({ host: bind.host, port: bind.port, registry });
  return {
    counting,
    engine: new TeeMetrics(counting, series),
    reconcileDuration: (c, s) => series.reconcileDuration(c, s),
    url: server.url,
    close: () => server.close(),
  };
}
