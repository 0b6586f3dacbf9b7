/**
 * The operator's controller on Kubernetes: the runtime's ControllerRunner (informers on
 * KvstoreClusters and on the StatefulSets and member pods the operator manages → a keyed work
 * queue of `<ns>/<name>` of the cluster concerned, leader-gated) runs one engine pass per key
 * (operator/controller/engine.ts), requeued after what the plan asks, with exponential backoff
 * (1 s … 60 s) after a failed pass.
 *
 * Contract:
 * - only the leader reconciles: with leader election, the queue exists only while this process
 *   holds the Lease (a new queue, with every cached cluster, each time it starts leading; on
 *   losing it the queue is dropped after the pass in flight). Informers run either way, so a
 *   standby is ready to take over;
 * - each pass reads the cluster fresh from the API server (not the informer cache, which may
 *   lag behind the status this operator just wrote: decisions follow status);
 * - finalizer: added before the first pass; on deletion the snapshot files are kept and the
 *   finalizer removed (finalizer.ts); the engine's memory of the cluster is dropped;
 * - an invalid cluster is not reconciled: a Warning event `InvalidSpec` names the problems;
 * - `stop()` stops the election (releasing the Lease), the queue (waiting for the pass in
 *   flight), then the informers. It never closes the member admin it was given.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, KIND, type KvstoreCluster } from '../../api/types.js';
import { parseCluster } from '../../api/parse.js';
import { Engine } from '../../controller/engine.js';
import type { AdminSource, EngineLogger, MemberAdmin, ReconcileFn, RehearsalPlatform, SnapshotStore } from '../../controller/ports.js';
import type { BackupStores } from '../../controller/backup/store-port.js';
import type { BackoffOptions } from '../backoff.js';
import { ControllerRunner } from '../controller-runner.js';
import { EventRecorder } from '../event-recorder.js';
import type { Check } from '../health-server.js';
import type { ClientNodeKubeClient } from '../kube/client-node-client.js';
import { listWatchSource } from '../kube/list-watch-source.js';
import type { CountingKubeClient } from '../kube/counting-client.js';
import type { KubeClient, KubeObject, ListQuery } from '../kube/types.js';
import type { OperatorMetrics } from '../metrics.js';
import type { Timers } from '../timers.js';
import { Outcome, type ProcessOutcome } from '../work-queue.js';
import { KubePlatform } from '../kube-platform/kube-platform.js';
import type { RestoreInspector } from '../../controller/restore/restore-source.js';
import type { UrlResolver } from '../kube-platform/member-url.js';
import { KubeEventSink, KubeStatusSink } from '../kube-platform/kube-sinks.js';
import { keyOfMemberPod, keyOfOwned, splitKey } from './cluster-keys.js';
import { addFinalizer, hasFinalizer, removeFinalizer } from './finalizer.js';
import { LABEL_MANAGED_BY, MANAGER } from '../../controller/builders/labels.js';

export interface LeaderElectionConfig {
  readonly namespace: string;
  /** Lease name (`kvstore-operator`). */
  readonly name: string;
  readonly identity: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
}

export interface KubeControllerOptions {
  readonly kubeConfig: KubeConfig;
  readonly kube: ClientNodeKubeClient;
  /**
   * `kube` with its requests counted (kube/counting-client.ts): when given, every call goes
   * through it, each pass inside `during(<ns>/<name>)` so its requests are the cluster's.
   */
  readonly requests?: CountingKubeClient;
  /** Namespace watched; undefined = all namespaces. */
  readonly namespace: string | undefined;
  /** Member admin calls (with the URL resolver in front, see kube-platform/member-url.ts); a
   * source gives each cluster the admin of its Secrets. */
  readonly admin: MemberAdmin | AdminSource;
  /** Peer URLs as the members know them (default: the DNS names; see KubePlatform). */
  readonly peerURL?: UrlResolver;
  readonly snapshots: SnapshotStore;
  /** Where scheduled backups go (spec.backup). */
  readonly backups?: BackupStores;
  /** Where upgrade rehearsals run (absent: a rehearsal fails, fail safe). */
  readonly rehearsal?: RehearsalPlatform;
  readonly reconcile: ReconcileFn;
  readonly logger: EngineLogger;
  readonly timers: Timers;
  readonly metrics: OperatorMetrics;
  /** `reportingInstance` of the Events this operator records (its pod name; default the host name). */
  readonly reportingInstance?: string;
  /** Absent: this process reconciles without an election. */
  readonly leaderElection?: LeaderElectionConfig;
  /** Backoff after failed passes (default 1 s … 60 s). */
  readonly backoff?: BackoffOptions;
  /** Bound of one pass's observation (engine default 5 s). */
  readonly observeTimeoutMs?: number;
  /** spec.restoreFrom: the snapshot check, and the URL the restore init containers fetch it from (absent: restores are refused). */
  readonly restore?: { readonly inspector: RestoreInspector; readonly url?: (cluster: KvstoreCluster) => string };
}

type Cluster = KubeObject & { readonly spec?: unknown };

export class KubeController {
  readonly #o: KubeControllerOptions;
  readonly #engine: Engine;
  readonly #events: EventRecorder;
  /** What every call goes through: the counting client when there is one. */
  readonly #kube: KubeClient;
  #runner: ControllerRunner<KubeObject> | undefined;

  constructor(options: KubeControllerOptions) {
    this.#o = options;
    const o = options;
    this.#kube = o.requests ?? o.kube;
    this.#events = new EventRecorder({
      kube: this.#kube,
      timers: o.timers,
      ...(o.reportingInstance === undefined ? {} : { instance: o.reportingInstance }),
      onError: (error, notice) => o.logger.warn({ reason: notice.reason, error: error.message }, 'event not recorded'),
    });
    this.#engine = new Engine({
      platform: new KubePlatform(this.#kube, o.peerURL, o.restore?.url),
      admin: o.admin,
      snapshots: o.snapshots,
      ...(o.backups === undefined ? {} : { backups: o.backups }),
      ...(o.rehearsal === undefined ? {} : { rehearsal: o.rehearsal }),
      status: new KubeStatusSink(this.#kube),
      events: new KubeEventSink(this.#events),
      clock: { now: () => o.timers.now() },
      metrics: o.metrics,
      logger: o.logger,
      reconcile: o.reconcile,
      ...(o.observeTimeoutMs === undefined ? {} : { observeTimeoutMs: o.observeTimeoutMs }),
      ...(o.restore === undefined ? {} : { restore: o.restore.inspector }),
    });
  }

  /** One check per informer (its first list is cached), for /readyz. */
  readiness(): Check[] {
    return this.#runner?.readiness() ?? [{ name: 'informers', check: () => 'not started' }];
  }

  get isLeader(): boolean {
    return this.#runner?.isLeader ?? false;
  }

  /** Starts the informers, then the election (or leads at once). Fails when a collection is not served. */
  async start(): Promise<{ ok: true } | { ok: false; error: string }> {
    const o = this.#o;
    const ns = o.namespace ?? '';
    const managed = `${LABEL_MANAGED_BY}=${MANAGER}`;
    const source = async (query: ListQuery) => listWatchSource<KubeObject>(o.kubeConfig, o.kube, query, o.requests);
    const clusters = await source({ apiVersion: API_VERSION, kind: KIND, namespace: ns });
    const sets = await source({ apiVersion: 'apps/v1', kind: 'StatefulSet', namespace: ns, labelSelector: managed });
    const pods = await source({ apiVersion: 'v1', kind: 'Pod', namespace: ns, labelSelector: managed });
    for (const [what, r] of [['KvstoreCluster', clusters], ['StatefulSet', sets], ['Pod', pods]] as const) {
      if (!r.ok) return { ok: false, error: `watch ${what}: ${r.error.message}` };
    }
    if (!clusters.ok || !sets.ok || !pods.ok) return { ok: false, error: 'unreachable' };
    const one = (f: (x: KubeObject) => string | undefined) => (x: KubeObject): readonly string[] => {
      const k = f(x);
      return k === undefined ? [] : [k];
    };
    const le = o.leaderElection;
    this.#runner = new ControllerRunner<KubeObject>({
      name: 'kvstoreclusters',
      primary: clusters.value,
      secondary: [
        { name: 'statefulsets', source: sets.value, keysOf: one(keyOfOwned) },
        { name: 'pods', source: pods.value, keysOf: one(keyOfMemberPod) },
      ],
      timers: o.timers,
      reconcile: (key) => this.#process(key),
      metrics: o.metrics,
      logger: o.logger,
      queueBackoff: { baseMs: 1000, capMs: 60_000, ...o.backoff },
      ...(le === undefined ? {} : { election: { kube: this.#kube, ...le } }),
    });
    this.#runner.start();
    return { ok: true };
  }

  /** One pass of `key`, its API requests counted for that cluster. */
  #process(key: string): Promise<ProcessOutcome> {
    const counting = this.#o.requests;
    return counting === undefined ? this.#pass(key) : counting.during(key, () => this.#pass(key));
  }

  async #pass(key: string): Promise<ProcessOutcome> {
    const o = this.#o;
    const { namespace, name } = splitKey(key);
    const got = await this.#kube.get<Cluster>({ apiVersion: API_VERSION, kind: KIND, namespace, name });
    if (!got.ok) {
      if (got.error.kind !== 'NotFound') return Outcome.retry(new Error(`read ${key}: ${got.error.message}`));
      this.#engine.forget({ metadata: { name, namespace } } as KvstoreCluster);
      o.metrics.forgetCluster(key);
      return Outcome.done;
    }
    const object = got.value;
    if (object.metadata.deletionTimestamp !== undefined) return this.#finalize(key, object);
    const parsed = parseCluster(object);
    if (parsed.kind === 'Invalid') {
      const problems = parsed.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
      o.logger.warn({ cluster: key, problems }, 'invalid cluster: not reconciled');
      await this.#events.emit(object, { type: 'Warning', reason: 'InvalidSpec', message: `not reconciled: ${problems}` });
      return Outcome.done;
    }
    let cluster = parsed.cluster;
    if (!hasFinalizer(object)) {
      const added = await addFinalizer(this.#kube, object);
      if (!added.ok) return Outcome.retry(new Error(`add finalizer to ${key}: ${added.error.message}`));
      cluster = { ...cluster, metadata: { ...cluster.metadata, ...added.value.metadata } };
    }
    const r = await this.#engine.pass(cluster);
    if (r.error !== undefined) return Outcome.retry(new Error(r.error));
    return r.requeueAfterSeconds === undefined ? Outcome.done : Outcome.requeueAfter(r.requeueAfterSeconds * 1000);
  }

  async #finalize(key: string, object: Cluster): Promise<ProcessOutcome> {
    this.#engine.forget({ metadata: { name: object.metadata.name, namespace: object.metadata.namespace } } as KvstoreCluster);
    this.#o.metrics.forgetCluster(key);
    if (!hasFinalizer(object)) return Outcome.done;
    const r = await removeFinalizer(this.#kube, object);
    if (!r.ok && r.error.kind !== 'NotFound') return Outcome.retry(new Error(`remove finalizer of ${key}: ${r.error.message}`));
    this.#o.logger.info({ cluster: key }, 'cluster deleted: snapshot files kept, finalizer removed');
    return Outcome.done;
  }

  /** Stops reconciling and watching (see the file header). */
  async stop(): Promise<void> {
    await this.#runner?.stop();
  }
}
