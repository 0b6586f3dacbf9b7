/**
 * One operator process on Kubernetes, wired: the KubeConfig's client, the member admins (one per
 * cluster access: the TLS client certificate and credentials its Secrets hold) behind a URL resolver, the snapshot volume, the controller loop, the prom-client Registry with the
 * operator metrics (every API request counted by cluster, verb and resource), and the /healthz /readyz /metrics server (readiness: every informer has
 * listed once; leadership is not a readiness condition, so a standby is ready), which also serves
 * snapshots to restore init containers and to upgrade rehearsals' scratch pods (PodRehearsal;
 * without a listener rehearsals fall back to a process in this pod, ProcessRehearsal, and say so).
 * `startKubeOperator` is what `kvstore-operator run` calls, and what tests call in-process
 * (with a resolver mapping pod DNS names to the test pods' addresses).
 */
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { createAdminSource } from '../../controller/admin/admin-source.js';
import type { MemberAdminOptions } from '../../controller/admin/member-admin.js';
import { kubeAccessLoader } from '../kube-platform/secret-access.js';
import type { EngineLogger, ReconcileFn, RehearsalPlatform } from '../../controller/ports.js';
import { startHealthServer, type HealthServer } from '../health-server.js';
import { ClientNodeKubeClient } from '../kube/client-node-client.js';
import { CountingKubeClient } from '../kube/counting-client.js';
import { createOperatorMetrics } from '../metrics.js';
import { systemTimers, type Timers } from '../timers.js';
import { identityResolver, resolvingAdmin, type UrlResolver } from '../kube-platform/member-url.js';
import { SnapshotVolume } from '../kube-platform/snapshot-volume.js';
import { kubeBackupStores } from '../kube-platform/backup-volume.js';
import { kubeRestoreInspector, restoreURLOf, serveRestore } from '../kube-platform/restore-route.js';
import type { KvstoreCluster } from '../../api/types.js';
import { KubeController, type LeaderElectionConfig } from './controller.js';
import { namespaceOf } from '../../controller/builders/names.js';
import { ProcessRehearsal } from '../rehearsal/process-rehearsal.js';
import { PodRehearsal } from '../rehearsal/pod-rehearsal.js';
import { rehearsalURLOf, serveRehearsal } from '../kube-platform/rehearsal-route.js';

/** The server build this operator carries (its image holds dist/server beside dist/operator). */
const BUNDLED_SERVER_MAIN = fileURLToPath(new URL('../../../server/main.js', import.meta.url));

/** Why a rehearsal runs inside the operator pod (no metrics listener: pods could not fetch the snapshot). */
const IN_OPERATOR_NOTE = 'upgrade rehearsals run as a process inside the operator pod (its own server build, not the target member image): start the operator with a metrics listener (--metrics-bind-address) to rehearse in a pod of the target image';

export interface KubeOperatorOptions {
  readonly kubeConfig: KubeConfig;
  /** undefined = every namespace. */
  readonly namespace: string | undefined;
  readonly snapshotDir: string;
  /** Directory destinations of scheduled backups (default `<snapshotDir>/backups`). */
  readonly backupDir?: string;
  readonly reconcile: ReconcileFn;
  readonly logger: EngineLogger;
  readonly leaderElection?: LeaderElectionConfig;
  /** Which operator reports its Events (`reportingInstance`): its pod name (default the host name). */
  readonly instance?: string;
  /** Health + metrics listener; undefined = none. */
  readonly metricsBind?: { readonly host: string; readonly port: number };
  /** Client URLs as this process dials them. Default: identity (cluster DNS). */
  readonly resolveUrl?: UrlResolver;
  /** Peer URLs as the members know them. Default: identity (the DNS names the pods advertise). */
  readonly resolvePeerUrl?: UrlResolver;
  readonly timers?: Timers;
  readonly admin?: MemberAdminOptions;
  readonly observeTimeoutMs?: number;
  /** The kvstore entry point of in-operator upgrade rehearsals, used only without metricsBind (default: the server build this operator carries). */
  readonly kvstoreMain?: string;
  /**
   * The operator's metrics listener as member pods reach it (its Service URL, e.g.
   * `http://kvstore-operator-metrics.kvstore-system.svc:8080`): spec.restoreFrom's init containers
   * fetch the checked snapshot there. Absent: the listener's own URL (right when the pods share this
   * host, as in tests). Without metricsBind restores are refused (RestoreUnsupported).
   */
  readonly restoreBaseURL?: string;
}

export interface KubeOperator {
  readonly controller: KubeController;
  readonly registry: Registry;
  /** The health server's URL, when one was asked for. */
  readonly healthURL?: string;
  /** Stops the controller (releasing the Lease), the health server and every member connection. */
  stop(): Promise<void>;
}

/** Why the controller's informers are not all synced, or undefined when they are. */
function unsynced(controller: KubeController): string | undefined {
  const failing = controller.readiness().flatMap((c) => c.check() ?? []);
  return failing.length === 0 ? undefined : failing.join('; ');
}

export async function startKubeOperator(o: KubeOperatorOptions): Promise<{ ok: true; value: KubeOperator } | { ok: false; error: string }> {
  const registry = new Registry();
  const metrics = createOperatorMetrics(registry);
  const direct = new ClientNodeKubeClient(o.kubeConfig);
  // Every API request is counted (kvstore_operator_api_requests_total), by the cluster whose pass made it.
  const kube = new CountingKubeClient(direct, (r) => metrics.apiRequest(r.cluster, r.verb, r.resource));
  const resolve = o.resolveUrl ?? identityResolver;
  const admin = createAdminSource({
    load: kubeAccessLoader(kube),
    ...(o.admin === undefined ? {} : { admin: o.admin }),
    wrap: (a) => resolvingAdmin(a, resolve),
  });
  const restoreDirs = { snapshotDir: o.snapshotDir, backupDir: o.backupDir ?? join(o.snapshotDir, 'backups') };
  const backups = kubeBackupStores(kube, restoreDirs.backupDir);
  // Restores need the listener serving the snapshots; its own URL when no other is given (tests).
  const restores = o.metricsBind !== undefined;
  let health: HealthServer | undefined;
  const restoreBase = (): string => o.restoreBaseURL ?? health?.url ?? '';
  // Rehearsal scratch members: pods of the target member image fetching the snapshot from the
  // listener; without a listener, child processes of this operator (its own server build).
  const rehearsals = join(resolvePath(o.snapshotDir), '.rehearsals');
  const rehearsal: RehearsalPlatform & { stopAll(): Promise<void> } = restores
    ? new PodRehearsal({ kube, logger: o.logger, snapshotURL: (ns, pod) => rehearsalURLOf(restoreBase(), ns, pod) })
    : new ProcessRehearsal({
      dirOf: (c) => join(rehearsals, `${namespaceOf(c)}-${c.metadata.name}`),
      kvstoreMain: o.kvstoreMain ?? BUNDLED_SERVER_MAIN,
      logger: o.logger,
      random: Math.random,
      note: IN_OPERATOR_NOTE,
    });
  if (!restores) o.logger.warn({}, IN_OPERATOR_NOTE);
  const controller = new KubeController({
    kubeConfig: o.kubeConfig,
    kube: direct,
    requests: kube,
    namespace: o.namespace,
    admin,
    ...(o.resolvePeerUrl === undefined ? {} : { peerURL: o.resolvePeerUrl }),
    snapshots: new SnapshotVolume(o.snapshotDir),
    backups,
    rehearsal,
    reconcile: o.reconcile,
    logger: o.logger,
    timers: o.timers ?? systemTimers(),
    metrics,
    ...(o.leaderElection === undefined ? {} : { leaderElection: o.leaderElection }),
    ...(o.instance === undefined ? {} : { reportingInstance: o.instance }),
    ...(o.observeTimeoutMs === undefined ? {} : { observeTimeoutMs: o.observeTimeoutMs }),
    restore: {
      inspector: kubeRestoreInspector(kube, restoreDirs, restores, backups),
      ...(restores ? { url: (c: KvstoreCluster) => restoreURLOf(restoreBase(), c) } : {}),
    },
  });
  if (o.metricsBind !== undefined) {
    try {
      health = await startHealthServer({
        host: o.metricsBind.host,
        port: o.metricsBind.port,
        registry,
        readiness: [{ name: 'informers', check: () => unsynced(controller) }],
        restore: (ns: string, name: string, auth: string | undefined) => serveRestore(kube, restoreDirs, ns, name, auth),
        rehearsal: (ns: string, pod: string, auth: string | undefined) => serveRehearsal(kube, o.snapshotDir, ns, pod, auth),
      });
    } catch (err) {
      admin.close();
      return { ok: false, error: `metrics listener ${o.metricsBind.host}:${o.metricsBind.port}: ${(err as Error).message}` };
    }
  }
  const started = await controller.start();
  if (!started.ok) {
    await controller.stop();
    await health?.close();
    admin.close();
    return started;
  }
  return {
    ok: true,
    value: {
      controller,
      registry,
      ...(health === undefined ? {} : { healthURL: health.url }),
      stop: async () => {
        await controller.stop();
        await rehearsal.stopAll();
        await health?.close();
        admin.close();
      },
    },
  };
}
