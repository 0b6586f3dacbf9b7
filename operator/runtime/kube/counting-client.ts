/**
 * A `KubeClient` in front of another that reports every request it makes (verb and resource, as
 * the API server's audit log and RBAC name them) and the cluster it was made for: the cluster
 * whose pass is running (`during(key, pass)`, carried through the pass's promise chains by an
 * AsyncLocalStorage of this client's own), '' outside any pass (leader election, informer lists).
 *
 * Verbs: get, list, create, update (replace), patch (merge patch; the status patch is
 * `<plural>/status`), delete; an Event is `create events`, a pod log `get pods/log`. The informer
 * watches do not go through a `KubeClient`; their owner reports them with `count('watch', …)`.
 * The answer of the inner client is passed through unchanged.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { resourceOf } from './resource-name.js';
import type { CoreEvent, KubeClient, KubeList, KubeObject, KubeResult, ListQuery, ObjectRef, PodLogRef } from './types.js';

export type ApiVerb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

export interface ApiRequest {
  /** `<namespace>/<name>` of the cluster whose pass made it; '' outside a pass. */
  readonly cluster: string;
  readonly verb: ApiVerb;
  /** Plural resource, with `/<subresource>` for a subresource (`kvstoreclusters/status`). */
  readonly resource: string;
}

export class CountingKubeClient implements KubeClient {
  readonly #inner: KubeClient;
  readonly #report: (request: ApiRequest) => void;
  readonly #pass = new AsyncLocalStorage<string>();

  constructor(inner: KubeClient, report: (request: ApiRequest) => void) {
    this.#inner = inner;
    this.#report = report;
  }

  /** Runs `pass` with every request it makes (in any promise chain it starts) counted for `cluster`. */
  during<T>(cluster: string, pass: () => Promise<T>): Promise<T> {
    return this.#pass.run(cluster, pass);
  }

  /** Reports a request made elsewhere (an informer's watch) for the current pass, if any. */
  count(verb: ApiVerb, resource: string): void {
    this.#report({ cluster: this.#pass.getStore() ?? '', verb, resource });
  }

  get<T extends KubeObject>(ref: ObjectRef): Promise<KubeResult<T>> {
    this.count('get', resourceOf(ref.kind));
    return this.#inner.get<T>(ref);
  }

  list<T extends KubeObject>(query: ListQuery): Promise<KubeResult<KubeList<T>>> {
    this.count('list', resourceOf(query.kind));
    return this.#inner.list<T>(query);
  }

  create<T extends KubeObject>(object: T): Promise<KubeResult<T>> {
    this.count('create', resourceOf(object.kind));
    return this.#inner.create(object);
  }

  replace<T extends KubeObject>(object: T): Promise<KubeResult<T>> {
    this.count('update', resourceOf(object.kind));
    return this.#inner.replace(object);
  }

  mergePatch<T extends KubeObject>(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeResult<T>> {
    this.count('patch', resourceOf(ref.kind));
    return this.#inner.mergePatch<T>(ref, patch);
  }

  patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown): Promise<KubeResult<T>> {
    this.count('patch', `${resourceOf(ref.kind)}/status`);
    return this.#inner.patchStatus<T>(ref, status);
  }

  delete(ref: ObjectRef): Promise<KubeResult<void>> {
    this.count('delete', resourceOf(ref.kind));
    return this.#inner.delete(ref);
  }

  createEvent(event: CoreEvent): Promise<KubeResult<CoreEvent>> {
    this.count('create', 'events');
    return this.#inner.createEvent(event);
  }

  podLog(ref: PodLogRef): Promise<KubeResult<string>> {
    this.count('get', 'pods/log');
    return this.#inner.podLog(ref);
  }
}
