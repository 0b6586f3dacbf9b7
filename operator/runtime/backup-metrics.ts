/**
 * The scheduled-backup series of the operator (metrics.ts registers them with the others):
 *
 * | metric | type | labels |
 * |---|---|---|
 * | kvstore_operator_backup_total | counter | namespace, cluster, result (`success` / `failure`) |
 * | kvstore_operator_backup_duration_seconds | histogram | namespace, cluster |
 * | kvstore_operator_backup_last_success_timestamp_seconds | gauge | namespace, cluster |
 * | kvstore_operator_backup_bytes | gauge (size of the last successful backup) | namespace, cluster |
 *
 * A backup that could not even start (no ready leader) counts as a failure with no duration.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { BackupMetric } from '../controller/ports.js';

export interface BackupSeries {
  backupFinished(labels: Readonly<Record<'namespace' | 'cluster', string>>, result: BackupMetric): void;
  forget(labels: Readonly<Record<'namespace' | 'cluster', string>>): void;
}

export function createBackupSeries(registry: Registry, prefix: string): BackupSeries {
  const registers = [registry];
  const labelNames = ['namespace', 'cluster'] as const;
  const total = new Counter({ name: `${prefix}backup_total`, help: 'Scheduled backups finished, by result (success, failure).', labelNames: [...labelNames, 'result'], registers });
  const duration = new Histogram({
    name: `${prefix}backup_duration_seconds`,
    help: 'Duration of a scheduled backup: snapshot stream, verification and upload.',
    labelNames,
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
    registers,
  });
  const lastSuccess = new Gauge({ name: `${prefix}backup_last_success_timestamp_seconds`, help: 'When the last successful backup completed (Unix seconds).', labelNames, registers });
  const bytes = new Gauge({ name: `${prefix}backup_bytes`, help: 'Size of the last successful backup in bytes.', labelNames, registers });
  return {
    backupFinished: (l, r) => {
      total.inc({ ...l, result: r.ok ? 'success' : 'failure' });
      if (r.seconds > 0 || r.ok) duration.observe(l, r.seconds);
      if (r.ok && r.atMs !== undefined) lastSuccess.set(l, r.atMs / 1000);
      if (r.ok && r.bytes !== undefined) bytes.set(l, r.bytes);
    },
    forget: (l) => {
      for (const r of ['success', 'failure']) total.remove({ ...l, result: r });
      for (const m of [duration, lastSuccess, bytes]) m.remove(l);
    },
  };
}
