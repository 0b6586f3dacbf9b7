/**
 * An informer for one resource collection: client-node's ListWatch (list, then watch from the
 * list's resourceVersion; relist after 410 Gone; reconnect from the last resourceVersion when the
 * server ends a watch) plus what it lacks:
 * - restart on error: a failed list or watch (API server down, 5xx, reset) is retried after a
 *   backoff (1 s doubling to 30 s by default; reset once a watch is established);
 * - `synced`: true once the first list is in the cache (for /readyz), `whenSynced()`;
 * - watches carry `timeoutSeconds` (300 by default) so a silently dead connection is replaced;
 * - watches that keep ending within a second of starting are resumed with backoff, not in a hot loop;
 * - typed handlers and a read-only cache (`get`, `list`).
 * The list call and the watch transport are ports (`ListWatchSource`), so tests can drive the
 * informer with fakes; kube/list-watch-source.ts builds the real one from a KubeConfig.
 * Handlers run synchronously in cache order: `add` and `update` get the new object, `delete`
 * the last known one. They should only enqueue work (work-queue.ts), never block.
 */
import { ListWatch, type KubernetesListObject, type KubernetesObject, type Watch } from '@kubernetes/client-node';
import { KeyedBackoff, type BackoffOptions } from './backoff.js';
import type { KubeList, KubeObject, KubeResult } from './kube/types.js';
import type { Cancel, Timers } from './timers.js';

/** The watch transport: client-node's `Watch` has exactly this shape. */
export type WatchTransport = Pick<Watch, 'watch'>;

export interface ListWatchSource<T extends KubeObject> {
  /** URL path of the collection, e.g. `/apis/kvstore.io/v1alpha1/namespaces/ns/kvstoreclusters`. */
  readonly path: string;
  readonly list: () => Promise<KubeResult<KubeList<T>>>;
  readonly watcher: WatchTransport;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface InformerHandlers<T> {
  readonly add?: (object: T) => void;
  readonly update?: (object: T) => void;
  readonly delete?: (object: T) => void;
}

export interface InformerOptions<T extends KubeObject> {
  readonly source: ListWatchSource<T>;
  readonly timers: Timers;
  readonly handlers: InformerHandlers<T>;
  /** Restart backoff (default 1 s … 30 s). */
  readonly backoff?: BackoffOptions;
  /** Called on every failure with the delay before the restart. */
  readonly onError?: (error: unknown, restartInMs: number) => void;
  /** Asks the server to end each watch after this long (default 300 s), so a half-open
   * connection is noticed; the informer then resumes from its resourceVersion. */
  readonly watchTimeoutSeconds?: number;
}

/** A watch that ends sooner than this after it started counts as a quick end (see #ended). */
const QUICK_END_MS = 1000;

/** A list failure as client-node's ListWatch understands errors (statusCode 410 = relist). */
class ListFailed extends Error {
  readonly statusCode: number;
  constructor(status: number, message: string, cause: unknown) {
    super(message, { cause });
    this.statusCode = status;
  }
}

export class Informer<T extends KubeObject> {
  readonly #o: InformerOptions<T>;
  readonly #lw: ListWatch<KubernetesObject>;
  readonly #backoff: KeyedBackoff<'restart' | 'quick-end'>;
  #pendingResume: Cancel | undefined;
  #synced = false;
  #syncWaiters: (() => void)[] = [];
  #running = false;
  #restart: Cancel | undefined;
  #restarts = 0;

  constructor(options: InformerOptions<T>) {
    this.#o = options;
    this.#backoff = new KeyedBackoff({ baseMs: 1000, capMs: 30_000, ...options.backoff });
    const src = options.source;
    const watcher = { watch: this.#watch.bind(this) } as unknown as Watch;
    this.#lw = new ListWatch<KubernetesObject>(src.path, watcher, () => this.#list(), false, src.labelSelector, src.fieldSelector);
    const h = options.handlers;
    if (h.add) this.#lw.on('add', (o) => h.add?.(o as unknown as T));
    if (h.update) this.#lw.on('update', (o) => h.update?.(o as unknown as T));
    if (h.delete) this.#lw.on('delete', (o) => h.delete?.(o as unknown as T));
    this.#lw.on('error', (err: unknown) => this.#failed(err));
  }

  /** True once the first list has filled the cache (stays true across restarts). */
  get synced(): boolean {
    return this.#synced;
  }

  /** How many times the informer restarted after an error. */
  get restarts(): number {
    return this.#restarts;
  }

  whenSynced(): Promise<void> {
    return this.#synced ? Promise.resolve() : new Promise((resolve) => this.#syncWaiters.push(resolve));
  }

  /** Starts listing and watching (idempotent). Failures are retried, never thrown. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    void this.#lw.start();
  }

  /** Stops watching and cancels a pending restart. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#restart?.();
    this.#restart = undefined;
    this.#pendingResume?.();
    this.#pendingResume = undefined;
    await this.#lw.stop();
  }

  get(name: string, namespace?: string): T | undefined {
    return this.#lw.get(name, namespace) as unknown as T | undefined;
  }

  list(namespace?: string): readonly T[] {
    return this.#lw.list(namespace) as unknown as readonly T[];
  }

  /** resourceVersion the watch continues from ('' before the first list or after a 410). */
  resourceVersion(): string {
    return this.#lw.latestResourceVersion();
  }

  async #list(): Promise<KubernetesListObject<KubernetesObject>> {
    const r = await this.#o.source.list();
    if (!r.ok) throw new ListFailed(r.error.status, `list ${this.#o.source.path}: ${r.error.message}`, r.error);
    return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: r.value.resourceVersion }, items: r.value.items as unknown as KubernetesObject[] };
  }

  /** Called by ListWatch once the list is in its cache: the cache is synced; the watch starts. */
  async #watch(...args: Parameters<Watch['watch']>): Promise<AbortController> {
    const [path, query, callback, done] = args;
    this.#markSynced();
    let ended = false;
    const startedAt = this.#o.timers.now();
    const params = { ...query, timeoutSeconds: this.#o.watchTimeoutSeconds ?? 300 };
    const controller = await this.#o.source.watcher.watch(path, params, callback, (err: unknown) => {
      ended = true;
      this.#ended(err, startedAt, done);
    });
    if (!ended) this.#backoff.forget('restart');
    return controller;
  }

  /**
   * A watch ended. Errors go straight to ListWatch (which reports them: restart with backoff).
   * A clean end is resumed at once, unless watches keep ending right after they start (a server
   * refusing them without an error): then each resume waits the quick-end backoff.
   */
  #ended(err: unknown, startedAt: number, done: (err: unknown) => void): void {
    if (err !== null && err !== undefined) {
      done(err);
      return;
    }
    if (!this.#running || this.#o.timers.now() - startedAt >= QUICK_END_MS) {
      this.#backoff.forget('quick-end');
      done(null);
      return;
    }
    const delay = this.#backoff.next('quick-end');
    const cancel = this.#o.timers.schedule(delay, () => {
      this.#pendingResume = undefined;
      if (this.#running) done(null);
    });
    this.#pendingResume = cancel;
  }

  #markSynced(): void {
    if (this.#synced) return;
    this.#synced = true;
    const waiters = this.#syncWaiters;
    this.#syncWaiters = [];
    for (const resolve of waiters) resolve();
  }

  #failed(error: unknown): void {
    if (!this.#running || this.#restart !== undefined) return;
    const delay = this.#backoff.next('restart');
    this.#o.onError?.(error, delay);
    this.#restart = this.#o.timers.schedule(delay, () => {
      this.#restart = undefined;
      if (!this.#running) return;
      this.#restarts += 1;
      void this.#lw.start();
    });
  }
}
