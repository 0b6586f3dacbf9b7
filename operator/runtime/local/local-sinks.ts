/**
 * The engine's sinks in local mode: the status goes into the manifest file, events into
 * `<cluster>.kvstore/events.log` (one JSON line each) and the log, and the metrics are kept
 * as counters in memory (`snapshot()` for tests and the exit summary; no prom-client here).
 */
import { appendFile } from 'node:fs/promises';
import type { KvstoreCluster, KvstoreClusterStatus } from '../../api/types.js';
import type { PlannedEvent } from '../../controller/model.js';
import type { BackupMetric, EngineLogger, EngineMetrics, EventSink, PortResult, StatusSink } from '../../controller/ports.js';
import type { ManifestFile } from './manifest-file.js';

export class ManifestStatusSink implements StatusSink {
  constructor(private readonly manifest: ManifestFile) {}
  write(_cluster: KvstoreCluster, status: KvstoreClusterStatus): Promise<PortResult<void>> {
    return this.manifest.writeStatus(status);
  }
}

export class EventsFile implements EventSink {
  constructor(
    private readonly file: string,
    private readonly logger: EngineLogger,
    private readonly now: () => number,
  ) {}

  async emit(cluster: KvstoreCluster, e: PlannedEvent): Promise<void> {
    const line = { time: new Date(this.now()).toISOString(), cluster: cluster.metadata.name, type: e.type, reason: e.reason, message: e.message };
    try {
      await appendFile(this.file, `${JSON.stringify(line)}\n`);
    } catch (err) {
      this.logger.warn({ cluster: cluster.metadata.name, error: (err as Error).message }, 'event not recorded');
    }
  }
}

export class CountingMetrics implements EngineMetrics {
  readonly counts = { upgradesStarted: 0, upgradesCompleted: 0, upgradesBlocked: 0, reconcileErrors: 0, memberUpgradeSeconds: [] as number[] };
  upgradeStarted(): void {
    this.counts.upgradesStarted++;
  }
  upgradeCompleted(): void {
    this.counts.upgradesCompleted++;
  }
  upgradeBlocked(): void {
    this.counts.upgradesBlocked++;
  }
  memberUpgradeDuration(_cluster: string, seconds: number): void {
    this.counts.memberUpgradeSeconds.push(seconds);
  }
  reconcileError(): void {
    this.counts.reconcileErrors++;
  }
  /** Scheduled backups finished: `backups.ok` / `backups.failed`. */
  readonly backups = { ok: 0, failed: 0 };
  backupFinished(_cluster: string, result: BackupMetric): void {
    if (result.ok) this.backups.ok++;
    else this.backups.failed++;
  }
}
