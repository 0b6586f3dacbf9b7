/**
 * An in-memory `KubeClient` for tests of code written against the port (leader election, event
 * recorder, engine): one resourceVersion counter for all objects, optimistic concurrency on
 * replace (stale resourceVersion → Conflict), AlreadyExists on create, merge patch, status
 * patch (only `status` changes), uid/creationTimestamp/generation on create. It is not an API
 * server: no watch, no selectors beyond `a=b,c=d` labels, no garbage collection, no finalizers.
 * A list with namespace '' lists every namespace, as the API server's cluster-wide list does.
 * Pod logs are what `setPodLog` put (NotFound for a pod without one).
 * `failWith` lets a test make the next calls fail (e.g. Unreachable) to exercise error paths.
 */
import { applyMergePatch } from './merge-patch.js';
import type { CoreEvent, KubeClient, KubeError, KubeList, KubeObject, KubeResult, ListQuery, ObjectRef, PodLogRef } from './types.js';

export type KubeOperation = 'get' | 'list' | 'create' | 'replace' | 'mergePatch' | 'patchStatus' | 'delete' | 'createEvent' | 'podLog';

type Stored = KubeObject & Record<string, unknown>;

function storeKey(r: { apiVersion: string; kind: string; namespace: string; name: string }): string {
  return `${r.apiVersion}|${r.kind}|${r.namespace}|${r.name}`;
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

function fail<T>(kind: KubeError['kind'], status: number, message: string): KubeResult<T> {
  return { ok: false, error: { kind, status, message } };
}

function matchesLabels(object: KubeObject, selector: string | undefined): boolean {
  if (selector === undefined || selector === '') return true;
  const labels = object.metadata.labels ?? {};
  return selector.split(',').every((term) => {
    const [k, v] = term.split('=');
    return k !== undefined && labels[k.trim()] === v?.trim();
  });
}

export class MemoryKubeClient implements KubeClient {
  readonly #objects = new Map<string, Stored>();
  readonly #now: () => string;
  #revision = 0;
  #uid = 0;
  #injected: ((op: KubeOperation, ref: ObjectRef | undefined) => KubeError | undefined) | undefined;

  /** `now` gives creation timestamps (RFC 3339); defaults to a fixed epoch so tests stay deterministic. */
  constructor(now: () => string = () => '2026-01-01T00:00:00Z') {
    this.#now = now;
  }

  /** Every call for which `decide` answers an error fails with it (undefined: proceed). */
  failWith(decide: ((op: KubeOperation, ref: ObjectRef | undefined) => KubeError | undefined) | undefined): void {
    this.#injected = decide;
  }

  /** All stored objects of a kind (copies), e.g. to assert on Events. */
  all<T extends KubeObject>(apiVersion: string, kind: string): T[] {
    return [...this.#objects.values()].filter((o) => o.apiVersion === apiVersion && o.kind === kind).map((o) => copy(o) as unknown as T);
  }

  #injectedError<T>(op: KubeOperation, ref: ObjectRef | undefined): KubeResult<T> | undefined {
    const error = this.#injected?.(op, ref);
    return error === undefined ? undefined : { ok: false, error };
  }

  #refOf(o: KubeObject): ObjectRef {
    return { apiVersion: o.apiVersion, kind: o.kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name };
  }

  #bump(o: Stored): Stored {
    this.#revision += 1;
    return { ...o, metadata: { ...o.metadata, resourceVersion: String(this.#revision) } };
  }

  get<T extends KubeObject>(ref: ObjectRef): Promise<KubeResult<T>> {
    const injected = this.#injectedError<T>('get', ref);
    if (injected) return Promise.resolve(injected);
    const found = this.#objects.get(storeKey(ref));
    if (found === undefined) return Promise.resolve(fail(`NotFound`, 404, `${ref.kind} "${ref.name}" not found`));
    return Promise.resolve({ ok: true, value: copy(found) as unknown as T });
  }

  list<T extends KubeObject>(q: ListQuery): Promise<KubeResult<KubeList<T>>> {
    const injected = this.#injectedError<KubeList<T>>('list', undefined);
    if (injected) return Promise.resolve(injected);
    const items = [...this.#objects.values()]
      .filter((o) => o.apiVersion === q.apiVersion && o.kind === q.kind && (q.namespace === '' || (o.metadata.namespace ?? '') === q.namespace))
      .filter((o) => matchesLabels(o, q.labelSelector))
      .map((o) => copy(o) as unknown as T);
    return Promise.resolve({ ok: true, value: { items, resourceVersion: String(this.#revision) } });
  }

  create<T extends KubeObject>(object: T): Promise<KubeResult<T>> {
    const name = object.metadata.name !== '' ? object.metadata.name : `${object.metadata.generateName ?? ''}${(this.#uid + 1).toString(36)}`;
    const ref = { ...this.#refOf(object), name };
    const injected = this.#injectedError<T>('create', ref);
    if (injected) return Promise.resolve(injected);
    if (this.#objects.has(storeKey(ref))) return Promise.resolve(fail('AlreadyExists', 409, `${ref.kind} "${name}" already exists`));
    this.#uid += 1;
    const stored = this.#bump({
      ...(copy(object) as unknown as Stored),
      metadata: { ...object.metadata, name, uid: `uid-${this.#uid}`, creationTimestamp: this.#now(), generation: 1 },
    });
    this.#objects.set(storeKey(ref), stored);
    return Promise.resolve({ ok: true, value: copy(stored) as unknown as T });
  }

  replace<T extends KubeObject>(object: T): Promise<KubeResult<T>> {
    const ref = this.#refOf(object);
    const injected = this.#injectedError<T>('replace', ref);
    if (injected) return Promise.resolve(injected);
    const current = this.#objects.get(storeKey(ref));
    if (current === undefined) return Promise.resolve(fail('NotFound', 404, `${ref.kind} "${ref.name}" not found`));
    const rv = object.metadata.resourceVersion;
    if (rv !== undefined && rv !== current.metadata.resourceVersion) {
      return Promise.resolve(fail('Conflict', 409, `Operation cannot be fulfilled on ${ref.kind} "${ref.name}": the object has been modified; please apply your changes to the latest version and try again`));
    }
    const stored = this.#bump({ ...(copy(object) as unknown as Stored), metadata: { ...object.metadata, uid: current.metadata.uid, creationTimestamp: current.metadata.creationTimestamp } });
    this.#objects.set(storeKey(ref), stored);
    return Promise.resolve({ ok: true, value: copy(stored) as unknown as T });
  }

  #patch<T extends KubeObject>(op: KubeOperation, ref: ObjectRef, patch: Record<string, unknown>): KubeResult<T> {
    const injected = this.#injectedError<T>(op, ref);
    if (injected) return injected;
    const current = this.#objects.get(storeKey(ref));
    if (current === undefined) return fail('NotFound', 404, `${ref.kind} "${ref.name}" not found`);
    const merged = applyMergePatch(current, patch) as Stored;
    const stored = this.#bump({ ...merged, metadata: { ...merged.metadata, name: ref.name, uid: current.metadata.uid } });
    this.#objects.set(storeKey(ref), stored);
    return { ok: true, value: copy(stored) as unknown as T };
  }

  mergePatch<T extends KubeObject>(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeResult<T>> {
    const { status: _ignored, ...rest } = patch;
    return Promise.resolve(this.#patch<T>('mergePatch', ref, rest));
  }

  patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown): Promise<KubeResult<T>> {
    return Promise.resolve(this.#patch<T>('patchStatus', ref, { status }));
  }

  delete(ref: ObjectRef): Promise<KubeResult<void>> {
    const injected = this.#injectedError<void>('delete', ref);
    if (injected) return Promise.resolve(injected);
    if (!this.#objects.delete(storeKey(ref))) return Promise.resolve(fail('NotFound', 404, `${ref.kind} "${ref.name}" not found`));
    this.#revision += 1;
    return Promise.resolve({ ok: true, value: undefined });
  }

  async createEvent(event: CoreEvent): Promise<KubeResult<CoreEvent>> {
    const injected = this.#injectedError<CoreEvent>('createEvent', this.#refOf(event));
    if (injected) return injected;
    return this.create(event);
  }

  readonly #logs = new Map<string, string>();

  /** What `podLog` answers for a container of a pod (its last lines). */
  setPodLog(namespace: string, name: string, container: string, text: string): void {
    this.#logs.set(`${namespace}|${name}|${container}`, text);
  }

  podLog(ref: PodLogRef): Promise<KubeResult<string>> {
    const injected = this.#injectedError<string>('podLog', { apiVersion: 'v1', kind: 'Pod', namespace: ref.namespace, name: ref.name });
    if (injected) return Promise.resolve(injected);
    const text = this.#logs.get(`${ref.namespace}|${ref.name}|${ref.container}`);
    if (text === undefined) return Promise.resolve(fail('NotFound', 404, `no log for pod "${ref.name}" container "${ref.container}"`));
    const lines = text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    return Promise.resolve({ ok: true, value: lines.slice(-ref.tailLines).map((l) => `${l}\n`).join('') });
  }
}
