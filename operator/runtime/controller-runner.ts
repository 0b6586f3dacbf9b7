/**
 * Runs one level-triggered controller: informers feed keys into a work queue whose workers call
 * `reconcile(key, object)`; with leader election, only the leader runs the queue.
 *
 * - The primary informer (e.g. KvstoreClusters) enqueues the key `namespace/name` of every
 *   added, updated or deleted object; secondary informers (pods, StatefulSets, …) enqueue the
 *   keys `keysOf(object)` names (e.g. the owning cluster).
 * - `reconcile` gets the cached primary object, or undefined when it was deleted, and the
 *   leadership signal; it answers a work-queue outcome (Done / RequeueAfter / Retry).
 * - Informers run on every replica (a standby keeps a warm cache and is ready); becoming leader
 *   creates a fresh queue holding every cached key once the primary cache is synced; losing
 *   leadership drops the queued keys and waits for the runs in flight.
 * - Metrics: is_leader, work_queue_depth, reconcile_duration_seconds (per key).
 * - `readiness()` gives one check per informer (synced) for the health server.
 */
import type { Check } from './health-server.js';
import { Informer, type ListWatchSource } from './informer.js';
import type { KubeClient, KubeObject } from './kube/types.js';
import { keyOf } from './kube/types.js';
import { LeaderElector } from './leader-election.js';
import type { OperatorMetrics } from './metrics.js';
import type { Timers } from './timers.js';
import { WorkQueue, type ProcessOutcome } from './work-queue.js';
import type { BackoffOptions } from './backoff.js';

export interface SecondaryWatch {
  /** Name used in readiness output, e.g. `pods`. */
  readonly name: string;
  readonly source: ListWatchSource<KubeObject>;
  /** Primary keys to reconcile when this object changes (e.g. from its owner reference). */
  readonly keysOf: (object: KubeObject) => readonly string[];
}

export interface ElectionSettings {
  readonly kube: KubeClient;
  readonly namespace: string;
  readonly name: string;
  readonly identity: string;
  readonly leaseDurationMs?: number;
  readonly renewDeadlineMs?: number;
  readonly retryPeriodMs?: number;
}

/** What the runner reports to the logger (a pino logger fits). */
export interface RunnerLogger {
  info(fields: Readonly<Record<string, unknown>>, msg: string): void;
  warn(fields: Readonly<Record<string, unknown>>, msg: string): void;
}

export interface ControllerRunnerOptions<T extends KubeObject> {
  /** Name of the primary resource, e.g. `kvstoreclusters`. */
  readonly name: string;
  readonly primary: ListWatchSource<T>;
  readonly secondary?: readonly SecondaryWatch[];
  readonly timers: Timers;
  readonly reconcile: (key: string, object: T | undefined, leading: AbortSignal) => Promise<ProcessOutcome>;
  readonly workers?: number;
  /** Absent: no election, this process always runs the queue. */
  readonly election?: ElectionSettings;
  readonly metrics?: OperatorMetrics;
  readonly logger?: RunnerLogger;
  readonly queueBackoff?: BackoffOptions;
  readonly informerBackoff?: BackoffOptions;
}

/** `namespace/name` → [namespace, name] (no slash: namespace undefined). */
function splitKey(key: string): [string | undefined, string] {
  const slash = key.indexOf('/');
  return slash < 0 ? [undefined, key] : [key.slice(0, slash), key.slice(slash + 1)];
}

export class ControllerRunner<T extends KubeObject> {
  readonly #o: ControllerRunnerOptions<T>;
  readonly #primary: Informer<T>;
  readonly #secondary: { readonly name: string; readonly informer: Informer<KubeObject> }[] = [];
  readonly #elector: LeaderElector | undefined;
  #queue: WorkQueue<string> | undefined;
  #leading: AbortSignal | undefined;
  #stopping: Promise<void> = Promise.resolve();

  constructor(options: ControllerRunnerOptions<T>) {
    this.#o = options;
    const enqueue = (key: string): void => this.#queue?.add(key);
    const informerLog = (name: string) => (error: unknown, restartInMs: number) =>
      options.logger?.warn({ informer: name, err: String(error), 'restart-in-ms': restartInMs }, 'informer failed, restarting');
    this.#primary = new Informer<T>({
      source: options.primary,
      timers: options.timers,
      handlers: { add: (o) => enqueue(keyOf(o)), update: (o) => enqueue(keyOf(o)), delete: (o) => enqueue(keyOf(o)) },
      onError: informerLog(options.name),
      ...(options.informerBackoff !== undefined ? { backoff: options.informerBackoff } : {}),
    });
    for (const w of options.secondary ?? []) {
      const fan = (o: KubeObject): void => {
        for (const k of w.keysOf(o)) enqueue(k);
      };
      const informer = new Informer<KubeObject>({
        source: w.source,
        timers: options.timers,
        handlers: { add: fan, update: fan, delete: fan },
        onError: informerLog(w.name),
        ...(options.informerBackoff !== undefined ? { backoff: options.informerBackoff } : {}),
      });
      this.#secondary.push({ name: w.name, informer });
    }
    const e = options.election;
    this.#elector =
      e === undefined
        ? undefined
        : new LeaderElector({
            kube: e.kube,
            timers: options.timers,
            namespace: e.namespace,
            name: e.name,
            identity: e.identity,
            ...(e.leaseDurationMs !== undefined ? { leaseDurationMs: e.leaseDurationMs } : {}),
            ...(e.renewDeadlineMs !== undefined ? { renewDeadlineMs: e.renewDeadlineMs } : {}),
            ...(e.retryPeriodMs !== undefined ? { retryPeriodMs: e.retryPeriodMs } : {}),
            onStartedLeading: (signal) => this.#lead(signal),
            onStoppedLeading: () => this.#follow(),
            onNewLeader: (id) => options.logger?.info({ leader: id }, 'leader observed'),
            onError: (err) => options.logger?.warn({ err: err.message, kind: err.kind }, 'leader election call failed'),
          });
  }

  get isLeader(): boolean {
    return this.#leading !== undefined;
  }

  /** The cached primary object of `key` (`namespace/name`). */
  cached(key: string): T | undefined {
    const [ns, name] = splitKey(key);
    return this.#primary.get(name, ns);
  }

  /** One readiness check per informer: its first list is in the cache. */
  readiness(): Check[] {
    const all: { readonly name: string; readonly informer: { readonly synced: boolean } }[] = [{ name: this.#o.name, informer: this.#primary }, ...this.#secondary];
    return all.map(({ name, informer }) => ({ name: `informer-${name}`, check: () => (informer.synced ? undefined : `${name} not synced`) }));
  }

  start(): void {
    this.#primary.start();
    for (const s of this.#secondary) s.informer.start();
    if (this.#elector === undefined) this.#lead(new AbortController().signal);
    else this.#elector.start();
  }

  /** Stops leading (releasing the lease), the queue (runs in flight finish) and the informers. */
  async stop(): Promise<void> {
    if (this.#elector !== undefined) await this.#elector.stop();
    else this.#follow();
    await this.#stopping;
    await this.#primary.stop();
    for (const s of this.#secondary) await s.informer.stop();
  }

  #lead(signal: AbortSignal): void {
    this.#leading = signal;
    this.#o.metrics?.setLeader(true);
    this.#o.logger?.info({ controller: this.#o.name }, 'started leading');
    const queue = new WorkQueue<string>({
      timers: this.#o.timers,
      workers: this.#o.workers ?? 1,
      process: (key) => this.#process(key, signal),
      onDepth: (d) => this.#o.metrics?.setQueueDepth(d),
      onFailure: (key, error, delayMs) => this.#o.logger?.warn({ key, err: String(error), 'retry-in-ms': delayMs }, 'reconcile failed'),
      ...(this.#o.queueBackoff !== undefined ? { backoff: this.#o.queueBackoff } : {}),
    });
    this.#queue = queue;
    queue.start();
    void this.#primary.whenSynced().then(() => {
      if (this.#queue !== queue) return;
      for (const o of this.#primary.list()) queue.add(keyOf(o));
    });
  }

  #follow(): void {
    const queue = this.#queue;
    this.#queue = undefined;
    if (this.#leading !== undefined) this.#o.logger?.info({ controller: this.#o.name }, 'stopped leading');
    this.#leading = undefined;
    this.#o.metrics?.setLeader(false);
    if (queue !== undefined) this.#stopping = queue.shutdown({ drain: false });
  }

  async #process(key: string, signal: AbortSignal): Promise<ProcessOutcome> {
    const started = this.#o.timers.now();
    try {
      return await this.#o.reconcile(key, this.cached(key), signal);
    } finally {
      this.#o.metrics?.reconcileDuration(key, (this.#o.timers.now() - started) / 1000);
    }
  }
}
