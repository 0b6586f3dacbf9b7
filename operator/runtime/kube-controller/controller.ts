/**
 * The operator's controller loop on Kubernetes: informers on KvstoreClusters and on the
 * StatefulSets and member pods the operator manages feed a keyed work queue (`<ns>/<name>` of
 * the cluster concerned); one worker runs one engine pass per key (operator/controller/
 * engine.ts), requeued after what the plan asks, with exponential backoff after a failed pass.
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
import type { EngineLogger, MemberAdmin, ReconcileFn, SnapshotStore } from '../../controller/ports.js';
import type { BackoffOptions } from '../backoff.js';
import { EventRecorder } from '../event-recorder.js';
import { Informer } from '../informer.js';
import type { ClientNodeKubeClient } from '../kube/client-node-client.js';
import { listWatchSource } from '../kube/list-watch-source.js';
import type { KubeObject, ListQuery } from '../kube/types.js';
import { LeaderElector } from '../leader-election.js';
import type { OperatorMetrics } from '../metrics.js';
import type { Timers } from '../timers.js';
import { Outcome, WorkQueue, type ProcessOutcome } from '../work-queue.js';
import { KubePlatform } from '../kube-platform/kube-platform.js';
import { KubeEventSink, KubeStatusSink } from '../kube-platform/kube-sinks.js';
import { keyOfCluster, keyOfMemberPod, keyOfOwned, splitKey } from './cluster-keys.js';
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
  /** Namespace watched; undefined = all namespaces. */
  readonly namespace: string | undefined;
  /** Member admin calls (with the URL resolver in front, see kube-platform/member-url.ts). */
  readonly admin: MemberAdmin;
  readonly snapshots: SnapshotStore;
  readonly reconcile: ReconcileFn;
  readonly logger: EngineLogger;
  readonly timers: Timers;
  readonly metrics: OperatorMetrics;
  /** Absent: this process reconciles without an election. */
  readonly leaderElection?: LeaderElectionConfig;
  /** Backoff after failed passes (default 1 s … 60 s). */
  readonly backoff?: BackoffOptions;
  /** Bound of one pass's observation (engine default 5 s). */
  readonly observeTimeoutMs?: number;
}

type Cluster = KubeObject & { readonly spec?: unknown };

export class KubeController {
  readonly #o: KubeControllerOptions;
  readonly #engine: Engine;
  readonly #events: EventRecorder;
  readonly #informers: Informer<KubeObject>[] = [];
  #elector: LeaderElector | undefined;
  #queue: WorkQueue<string> | undefined;
  #draining: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(options: KubeControllerOptions) {
    this.#o = options;
    const o = options;
    this.#events = new EventRecorder({
      kube: o.kube,
      timers: o.timers,
      onError: (error, notice) => o.logger.warn({ reason: notice.reason, error: error.message }, 'event not recorded'),
    });
    this.#engine = new Engine({
      platform: new KubePlatform(o.kube),
      admin: o.admin,
      snapshots: o.snapshots,
      status: new KubeStatusSink(o.kube),
      events: new KubeEventSink(this.#events),
      clock: { now: () => o.timers.now() },
      metrics: o.metrics,
      logger: o.logger,
      reconcile: o.reconcile,
      ...(o.observeTimeoutMs === undefined ? {} : { observeTimeoutMs: o.observeTimeoutMs }),
    });
  }

  /** Every informer has listed its collection once. */
  get synced(): boolean {
    return this.#informers.length > 0 && this.#informers.every((i) => i.synced);
  }

  get isLeader(): boolean {
    return this.#queue !== undefined;
  }

  /** Starts the informers, then the election (or leads at once). Fails when a collection is not served. */
  async start(): Promise<{ ok: true } | { ok: false; error: string }> {
    const ns = this.#o.namespace ?? '';
    const managed = `${LABEL_MANAGED_BY}=${MANAGER}`;
    const watched: readonly [ListQuery, (o: KubeObject) => string | undefined][] = [
      [{ apiVersion: API_VERSION, kind: KIND, namespace: ns }, keyOfCluster],
      [{ apiVersion: 'apps/v1', kind: 'StatefulSet', namespace: ns, labelSelector: managed }, keyOfOwned],
      [{ apiVersion: 'v1', kind: 'Pod', namespace: ns, labelSelector: managed }, keyOfMemberPod],
    ];
    for (const [query, keyOf] of watched) {
      const source = await listWatchSource<KubeObject>(this.#o.kubeConfig, this.#o.kube, query);
      if (!source.ok) return { ok: false, error: `watch ${query.kind}: ${source.error.message}` };
      const enqueue = (o: KubeObject): void => {
        const k = keyOf(o);
        if (k !== undefined) this.#queue?.add(k);
      };
      const informer = new Informer<KubeObject>({
        source: source.value,
        timers: this.#o.timers,
        handlers: { add: enqueue, update: enqueue, delete: enqueue },
        onError: (error, ms) => this.#o.logger.warn({ kind: query.kind, error: String(error), restartInMs: ms }, 'informer restarting'),
      });
      this.#informers.push(informer);
      informer.start();
    }
    const le = this.#o.leaderElection;
    if (le === undefined) {
      this.#lead();
      return { ok: true };
    }
    this.#elector = new LeaderElector({
      kube: this.#o.kube,
      timers: this.#o.timers,
      ...le,
      onStartedLeading: () => this.#lead(),
      onStoppedLeading: () => void this.#follow(),
      onNewLeader: (identity) => this.#o.logger.info({ leader: identity }, 'leader observed'),
      onError: (error) => this.#o.logger.warn({ error: error.message }, 'leader election attempt failed'),
    });
    this.#elector.start();
    return { ok: true };
  }

  #lead(): void {
    if (this.#stopped || this.#queue !== undefined) return;
    this.#o.logger.info({}, 'leading: reconciling');
    this.#o.metrics.setLeader(true);
    const queue = new WorkQueue<string>({
      process: (key) => this.#process(key),
      timers: this.#o.timers,
      backoff: { baseMs: 1000, capMs: 60_000, ...this.#o.backoff },
      onDepth: (d) => this.#o.metrics.setQueueDepth(d),
      onFailure: (key, error, delayMs) => this.#o.logger.warn({ cluster: key, error: error instanceof Error ? error.message : String(error), retryInMs: delayMs }, 'pass failed; backing off'),
    });
    this.#queue = queue;
    queue.start();
    // Clusters already cached; the others arrive through the informer once it has listed.
    for (const c of this.#informers[0]?.list() ?? []) queue.add(keyOfCluster(c));
    void this.#informers[0]?.whenSynced().then(() => {
      for (const c of this.#informers[0]?.list() ?? []) this.#queue?.add(keyOfCluster(c));
    });
  }

  async #follow(): Promise<void> {
    const queue = this.#queue;
    this.#queue = undefined;
    this.#o.metrics.setLeader(false);
    this.#o.logger.info({}, 'not leading: reconciling stopped');
    if (queue !== undefined) this.#draining = queue.shutdown({ drain: false });
    await this.#draining;
  }

  async #process(key: string): Promise<ProcessOutcome> {
    const o = this.#o;
    const { namespace, name } = splitKey(key);
    const got = await o.kube.get<Cluster>({ apiVersion: API_VERSION, kind: KIND, namespace, name });
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
      const added = await addFinalizer(o.kube, object);
      if (!added.ok) return Outcome.retry(new Error(`add finalizer to ${key}: ${added.error.message}`));
      cluster = { ...cluster, metadata: { ...cluster.metadata, ...added.value.metadata } };
    }
    const started = o.timers.now();
    const r = await this.#engine.pass(cluster);
    o.metrics.reconcileDuration(key, (o.timers.now() - started) / 1000);
    if (r.error !== undefined) return Outcome.retry(new Error(r.error));
    return r.requeueAfterSeconds === undefined ? Outcome.done : Outcome.requeueAfter(r.requeueAfterSeconds * 1000);
  }

  async #finalize(key: string, object: Cluster): Promise<ProcessOutcome> {
    this.#engine.forget({ metadata: { name: object.metadata.name, namespace: object.metadata.namespace } } as KvstoreCluster);
    this.#o.metrics.forgetCluster(key);
    if (!hasFinalizer(object)) return Outcome.done;
    const r = await removeFinalizer(this.#o.kube, object);
    if (!r.ok && r.error.kind !== 'NotFound') return Outcome.retry(new Error(`remove finalizer of ${key}: ${r.error.message}`));
    this.#o.logger.info({ cluster: key }, 'cluster deleted: snapshot files kept, finalizer removed');
    return Outcome.done;
  }

  /** Stops reconciling and watching (see the file header). */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#elector?.stop();
    await this.#follow();
    await Promise.all(this.#informers.map((i) => i.stop()));
  }
}
