/**
 * `kvstore-operator local`: the engine driven by a manifest file instead of the Kubernetes
 * API. One cluster per file. A pass runs at start, whenever the file changes, and when the
 * previous pass asked for a requeue (else every `idleRequeueSeconds`); passes never overlap
 * (a trigger during a pass runs one more pass right after). A supervision tick restarts dead
 * members like a StatefulSet controller would, and runs a pass when it finds a member whose
 * data is gone (reconcile replaces it).
 *
 * Contract: `start()` fails (a value) when the manifest is unreadable or invalid; a manifest
 * broken later is logged and left alone until it is fixed (the last good one is not acted on
 * either). `stop()` stops the timers and the watch, waits for the pass in progress, then stops
 * every member.
 */
import { mkdir } from 'node:fs/promises';
import type { KvstoreCluster } from '../../api/types.js';
import { createAdminSource } from '../../controller/admin/admin-source.js';
import { Engine } from '../../controller/engine.js';
import { portFail, portOk, type AdminSource, type EngineLogger, type PortResult, type ReconcileFn, type RehearsalPlatform } from '../../controller/ports.js';
import { FileWatch } from './file-watch.js';
import { LocalLayout } from './layout.js';
import { localAccessLoader, readSecretFile } from './local-access.js';
import { PlatformBackupStores } from '../backup-store/backup-stores.js';
import { LocalCertificates } from './local-certificates.js';
import { EventsFile, ManifestStatusSink } from './local-sinks.js';
import { createLocalMetrics, type LocalMetrics } from './local-metrics.js';
import { LocalPlatform } from './local-platform.js';
import { ManifestFile } from './manifest-file.js';
import { ProcessRehearsal } from '../rehearsal/process-rehearsal.js';
import { SnapshotDir } from './snapshot-dir.js';
import { localRestoreInspector } from './local-restore.js';

export interface LocalRunnerOptions {
  readonly manifestFile: string;
  readonly kvstoreMain: string;
  readonly reconcile: ReconcileFn;
  readonly logger: EngineLogger;
  readonly random: () => number;
  readonly now: () => number;
  /** Pass again after this long when the plan names no requeue (default 5 s: observing is cheap locally, and status stays fresh). */
  readonly idleRequeueSeconds?: number;
  /** Supervision tick (default 1 s). */
  readonly superviseMs?: number;
  /** Polling interval of the file watch fallback (default 1 s). */
  readonly pollMs?: number;
  /** Where to serve /healthz, /readyz and /metrics (port 0 picks one); none when absent. */
  readonly metricsBind?: { readonly host: string; readonly port: number };
  /** Wraps the upgrade rehearsal platform (tests inject faults through it); the local one as is when absent. */
  readonly wrapRehearsal?: (local: RehearsalPlatform) => RehearsalPlatform;
}

export class LocalRunner {
  private timer: NodeJS.Timeout | undefined;
  private superviseTimer: NodeJS.Timeout | undefined;
  private watch: FileWatch | undefined;
  private backups: PlatformBackupStores | undefined;
  private current: Promise<void> | undefined;
  private again = false;
  /** Members last seen without their data (comma-separated), to pass once when it changes. */
  private lost = '';
  private stopping = false;
  private cluster: KvstoreCluster;

  private constructor(
    private readonly o: LocalRunnerOptions,
    private readonly manifest: ManifestFile,
    private readonly platform: LocalPlatform,
    private readonly admin: AdminSource,
    private readonly engine: Engine,
    private readonly rehearsal: ProcessRehearsal,
    /** Engine counters (upgrades started/completed/blocked, member durations, errors), and the metrics listener if any. */
    readonly metrics: LocalMetrics,
    first: KvstoreCluster,
  ) {
    this.cluster = first;
  }

  static async start(o: LocalRunnerOptions): Promise<PortResult<LocalRunner>> {
    const manifest = new ManifestFile(o.manifestFile);
    const first = await manifest.load();
    if (!first.ok) return first;
    const layout = new LocalLayout(o.manifestFile, first.value.metadata.name);
    await mkdir(layout.base, { recursive: true });
    const certificates = new LocalCertificates(layout.tlsDir, o.now);
    const platform = await LocalPlatform.open({ layout, kvstoreMain: o.kvstoreMain, logger: o.logger, random: o.random, now: o.now, certificates });
    if (!platform.ok) return platform;
    let metrics: LocalMetrics;
    try {
      metrics = await createLocalMetrics(o.metricsBind);
    } catch (err) {
      await platform.value.stopAll();
      return portFail(`metrics listener ${o.metricsBind?.host}:${o.metricsBind?.port}: ${(err as Error).message}`);
    }
    const admin = createAdminSource({ load: localAccessLoader(layout, certificates) });
    const backups = new PlatformBackupStores({
      dirOf: (_c, path) => layout.backupDir(path),
      stagingDirOf: () => layout.backupStagingDir,
      secretsOf: () => (name) => readSecretFile(layout.secretFile(name)),
    });
    const rehearsal = new ProcessRehearsal({ dirOf: () => layout.base, kvstoreMain: o.kvstoreMain, logger: o.logger, random: o.random });
    const engine = new Engine({
      backups,
      platform: platform.value,
      admin,
      snapshots: new SnapshotDir(layout),
      rehearsal: o.wrapRehearsal === undefined ? rehearsal : o.wrapRehearsal(rehearsal),
      status: new ManifestStatusSink(manifest),
      events: new EventsFile(layout.eventsFile, o.logger, o.now),
      clock: { now: o.now },
      metrics: metrics.engine,
      logger: o.logger,
      reconcile: o.reconcile,
      restore: localRestoreInspector(o.manifestFile, backups),
    });
    const runner = new LocalRunner(o, manifest, platform.value, admin, engine, rehearsal, metrics, first.value);
    o.logger.info({ cluster: first.value.metadata.name, dir: layout.base, ...(metrics.url === undefined ? {} : { metrics: `${metrics.url}/metrics` }) }, 'local mode started');
    runner.backups = backups;
    runner.watch = new FileWatch(o.manifestFile, () => runner.trigger('file changed'), 200, o.pollMs ?? 1000);
    runner.superviseTimer = setInterval(() => runner.supervise(), o.superviseMs ?? 1000);
    runner.trigger('start');
    return portOk(runner);
  }

  /** Runs a pass now (or right after the one in progress). */
  trigger(why: string): void {
    if (this.stopping) return;
    if (this.current !== undefined) {
      this.again = true;
      return;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.o.logger.debug({ cluster: this.cluster.metadata.name, why }, 'pass triggered');
    this.current = this.pass().finally(() => {
      this.current = undefined;
      if (this.again && !this.stopping) {
        this.again = false;
        this.trigger('changed during the pass');
      }
    });
  }

  private async pass(): Promise<void> {
    const loaded = await this.manifest.load();
    if (!loaded.ok) {
      this.o.logger.error({ cluster: this.cluster.metadata.name, error: loaded.error }, 'manifest not usable; waiting for it to be fixed');
      this.schedule(this.o.idleRequeueSeconds ?? 5);
      return;
    }
    if (loaded.value.metadata.name !== this.cluster.metadata.name) {
      this.o.logger.error({ cluster: this.cluster.metadata.name, renamed: loaded.value.metadata.name }, 'metadata.name changed: one file runs one cluster; ignored');
      this.schedule(this.o.idleRequeueSeconds ?? 5);
      return;
    }
    this.cluster = loaded.value;
    const started = this.o.now();
    const r = await this.engine.pass(loaded.value);
    this.metrics.reconcileDuration(loaded.value.metadata.name, (this.o.now() - started) / 1000);
    this.schedule(r.requeueAfterSeconds ?? this.o.idleRequeueSeconds ?? 5);
  }

  private schedule(seconds: number): void {
    if (this.stopping) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.trigger('requeue'), Math.max(0, seconds) * 1000);
  }

  private supervise(): void {
    if (this.stopping || this.cluster.spec.paused) return;
    void this.platform.supervise(this.cluster).then((r) => {
      if (!r.ok) this.o.logger.warn({ cluster: this.cluster.metadata.name, error: r.error }, 'member start failed');
      // A member found without its data is news for reconcile (it replaces it): pass now, not at the next requeue.
      const lost = this.platform.lostMembers().join(',');
      if (lost !== this.lost) {
        this.lost = lost;
        if (lost !== '') this.trigger(`data lost: ${lost}`);
      }
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.superviseTimer !== undefined) clearInterval(this.superviseTimer);
    this.watch?.close();
    await this.current;
    this.o.logger.info({ cluster: this.cluster.metadata.name }, 'stopping members');
    await this.rehearsal.stopAll();
    await this.platform.stopAll();
    this.admin.close();
    this.backups?.close();
    await this.metrics.close();
  }
}
