/**
 * The in-memory object store behind the test API server, shaped like the API server over etcd:
 * one global resourceVersion counter (every write takes the next value), optimistic concurrency
 * (a write carrying a stale metadata.resourceVersion is a 409 Conflict), status subresource
 * rules, generation bumps on spec changes, finalizers and graceful deletion, custom resources
 * pruned, defaulted and validated by their CRD schema, and a bounded
 * event history that watches replay from (older than the history → 410 Expired).
 *
 * Custom resources are kept with the keys of every object sorted, as the API server stores and
 * serves them; a write that changes nothing (canonical.ts) keeps the resourceVersion, wakes no
 * watcher and answers the stored object.
 *
 * Invariants: objects handed out are copies; resourceVersions only grow; every change is one
 * event in the history with that change's resourceVersion; listeners are called synchronously
 * after the change, in order (controllers must defer their own writes).
 */
import { asSeenBy, EventLog, selects, type Selection, type StoreEvent } from './event-log.js';
import { apiVersionOf, typeKey, type ResourceRegistry, type ResourceType } from './resources.js';
import { canonicalJson, withSortedKeys } from './canonical.js';
import { applyDefaults } from './schema-defaults.js';
import { prune } from './schema-prune.js';
import { SchemaValidator } from './schema-validate.js';
import { alreadyExists, badRequest, conflict, expired, invalid, notFound, type ApiError } from './status.js';
import { clone, type Json, type JsonObject, type KubeObject } from './types.js';
import { createCauses, updateCauses } from './validation.js';

export type { Selection, StoreEvent } from './event-log.js';

/** Outcome of a write. */
export type WriteResult = { readonly ok: true; readonly object: KubeObject } | { readonly ok: false; readonly error: ApiError };

/** Which part of the object a PUT or PATCH writes. */
export type WriteMode = 'main' | 'status';

/** Options of `delete`. */
export interface DeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
}

/** Construction options: clock, uid source, history bound, graceful deletion policy. */
export interface StoreOptions {
  readonly historyLimit?: number;
  readonly now?: () => Date;
  readonly uid?: () => string;
  /** Prune, default and validate custom resources by their CRD schema (default true; false: stored as given). */
  readonly validateCustomResources?: boolean;
  /** true when deleting this object waits for a kubelet (pods on a node): deletionTimestamp first. */
  readonly gracefulDelete?: (t: ResourceType, obj: KubeObject) => boolean;
}

function timestamp(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function idOf(ns: string | undefined, name: string): string {
  return `${ns ?? ''}/${name}`;
}

/** The parts of an object that count as its spec (generation bumps when they change), as canonical JSON. */
function specPart(t: ResourceType, o: KubeObject): string {
  const { metadata: _m, status, apiVersion: _a, kind: _k, ...rest } = o;
  return canonicalJson((t.hasStatus ? rest : { ...rest, status }) as Json);
}

/**
 * A write that changes nothing: the object to store is the stored one (compared as JSON values,
 * key order aside; resourceVersion aside — as the API server compares what it would store with
 * what it holds, after defaulting). Such a write keeps the resourceVersion and wakes no watcher.
 */
function sameContent(a: KubeObject, b: KubeObject): boolean {
  const strip = (o: KubeObject): string => canonicalJson({ ...o, apiVersion: '', metadata: { ...o.metadata, resourceVersion: '' } } as unknown as Json);
  return strip(a) === strip(b);
}

export class ObjectStore {
  private rv = 0n;
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly log: EventLog;
  private readonly validators = new Map<string, { schema: JsonObject; validator: SchemaValidator }>();
  private readonly now: () => Date;
  private readonly uid: () => string;

  constructor(readonly registry: ResourceRegistry, private readonly opts: StoreOptions = {}) {
    this.log = new EventLog(opts.historyLimit ?? 5000);
    this.now = opts.now ?? (() => new Date());
    this.uid = opts.uid ?? (() => crypto.randomUUID());
  }

  /** The latest resourceVersion handed out. */
  revision(): bigint {
    return this.rv;
  }

  /** Drops the event history: watches from any earlier resourceVersion get 410 Expired. */
  compactHistory(): void {
    this.log.compact(this.rv);
  }

  /** Calls `fn` after every change (synchronously, in order); answers the unsubscribe function. */
  subscribe(fn: (e: StoreEvent) => void): () => void {
    return this.log.subscribe(fn);
  }

  get(t: ResourceType, ns: string | undefined, name: string): KubeObject | undefined {
    const o = this.space(t).get(idOf(t.namespaced ? ns : undefined, name));
    return o === undefined ? undefined : clone(o);
  }

  /** Matching objects (sorted by namespace and name) and the resourceVersion of the list. */
  list(sel: Selection): { items: KubeObject[]; resourceVersion: string } {
    const items = [...this.space(sel.type).values()]
      .filter((o) => selects(sel, o))
      .sort((a, b) => idOf(a.metadata.namespace, a.metadata.name ?? '').localeCompare(idOf(b.metadata.namespace, b.metadata.name ?? '')))
      .map(clone);
    return { items, resourceVersion: String(this.rv) };
  }

  /**
   * Starts a watch: the events after `fromRv` still in history (or, without `fromRv`, an ADDED per
   * current object), then every later matching event through `send`. 410 when history is gone.
   */
  watch(sel: Selection, fromRv: bigint | undefined, send: (e: StoreEvent) => void): { ok: true; cancel: () => void } | { ok: false; error: ApiError } {
    let backlog: StoreEvent[];
    if (fromRv === undefined || fromRv === 0n) {
      backlog = this.list(sel).items.map((o) => ({ rv: BigInt(o.metadata.resourceVersion ?? '0'), type: 'ADDED' as const, typeKey: typeKey(sel.type), object: o }));
    } else {
      const kept = this.log.since(fromRv);
      if (kept === undefined) return { ok: false, error: expired(fromRv, this.log.oldestWatchable() + 1n) };
      backlog = kept.flatMap((e) => asSeenBy(sel, e) ?? []);
    }
    for (const e of backlog) send(e);
    const cancel = this.log.subscribe((e) => {
      if (fromRv !== undefined && e.rv <= fromRv) return;
      const seen = asSeenBy(sel, e);
      if (seen !== undefined) send(seen);
    });
    return { ok: true, cancel };
  }

  /** POST: names, uid, timestamps, resourceVersion, generation 1; 409 AlreadyExists. */
  create(t: ResourceType, ns: string | undefined, body: KubeObject): WriteResult {
    const o = clone(body);
    o.metadata = { ...(o.metadata ?? {}) };
    const meta = o.metadata;
    if (meta.name === undefined || meta.name === '') {
      if (meta.generateName === undefined || meta.generateName === '') {
        return { ok: false, error: invalid(t.kind, t.group, '', [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }]) };
      }
      meta.name = `${meta.generateName}${this.uid().replaceAll('-', '').slice(0, 5)}`;
    }
    if (t.namespaced) {
      if (ns === undefined) return { ok: false, error: badRequest('the namespace of the provided object is missing') };
      if (meta.namespace !== undefined && meta.namespace !== ns) {
        return { ok: false, error: badRequest('the namespace of the provided object does not match the namespace sent on the request') };
      }
      meta.namespace = ns;
    } else {
      delete meta.namespace;
    }
    const id = idOf(meta.namespace, meta.name);
    if (this.space(t).has(id)) return { ok: false, error: alreadyExists({ group: t.group, plural: t.plural, name: meta.name }) };
    meta.uid = this.uid();
    meta.creationTimestamp = timestamp(this.now());
    meta.generation = 1;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    o.kind = t.kind;
    if (o.apiVersion === undefined) o.apiVersion = apiVersionOf(t.group, t.versions[0] ?? 'v1');
    if (t.hasStatus) delete o.status;
    if (t.group === '' && t.plural === 'pods') o.status = { phase: 'Pending' };
    const causes = createCauses(o);
    if (causes.length > 0) return { ok: false, error: invalid(t.kind, t.group, meta.name, causes) };
    const admitted = this.admit(t, o);
    if ('error' in admitted) return { ok: false, error: admitted.error };
    return { ok: true, object: this.put(t, 'ADDED', admitted.object) };
  }

  /** PUT (or the result of a PATCH): see the file header for the rules. */
  update(t: ResourceType, ns: string | undefined, name: string, body: KubeObject, mode: WriteMode = 'main'): WriteResult {
    const target = { group: t.group, plural: t.plural, name };
    const old = this.space(t).get(idOf(t.namespaced ? ns : undefined, name));
    if (old === undefined) return { ok: false, error: notFound(target) };
    const incoming = clone(body);
    const inMeta = incoming.metadata ?? {};
    if (inMeta.name !== undefined && inMeta.name !== name) {
      return { ok: false, error: badRequest(`the name of the object (${inMeta.name}) does not match the name on the URL (${name})`) };
    }
    if (inMeta.resourceVersion !== undefined && inMeta.resourceVersion !== '' && inMeta.resourceVersion !== old.metadata.resourceVersion) {
      return { ok: false, error: conflict(target) };
    }
    let next: KubeObject;
    if (mode === 'status') {
      next = clone(old);
      if (incoming.status === undefined) delete next.status;
      else next.status = incoming.status;
    } else {
      next = { ...incoming, metadata: { ...inMeta } };
      if (t.hasStatus) {
        if (old.status === undefined) delete next.status;
        else next.status = clone(old.status);
      }
      const keep = ['name', 'namespace', 'uid', 'creationTimestamp', 'generation', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'generateName'] as const;
      const meta = next.metadata as Record<string, unknown>;
      for (const k of keep) {
        if (old.metadata[k] === undefined) delete meta[k];
        else meta[k] = old.metadata[k];
      }
      if (next.metadata.deletionTimestamp !== undefined) {
        // Once deleting, finalizers may only be removed, never added.
        next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => (old.metadata.finalizers ?? []).includes(f));
      }
    }
    next.kind = t.kind;
    next.apiVersion = old.apiVersion;
    next.metadata.resourceVersion = old.metadata.resourceVersion;
    const admitted = this.admit(t, next, old);
    if ('error' in admitted) return { ok: false, error: admitted.error };
    next = admitted.object;
    const causes = mode === 'main' ? updateCauses(old, next) : [];
    if (causes.length > 0) return { ok: false, error: invalid(t.kind, t.group, name, causes) };
    if (specPart(t, next) !== specPart(t, old)) next.metadata.generation = (old.metadata.generation ?? 0) + 1;
    if (next.metadata.deletionTimestamp !== undefined && (next.metadata.finalizers ?? []).length === 0 && !this.waitsForKubelet(t, next)) {
      return { ok: true, object: this.remove(t, next) };
    }
    if (sameContent(next, old)) return { ok: true, object: clone(old) };
    return { ok: true, object: this.put(t, 'MODIFIED', next, old) };
  }

  /**
   * DELETE: removes the object, or — with finalizers, or for a pod a kubelet must stop first —
   * sets deletionTimestamp and keeps it until the finalizers are gone (and the kubelet deleted
   * it with grace period 0). Orphan propagation drops the owner reference from dependents first.
   */
  delete(t: ResourceType, ns: string | undefined, name: string, opts: DeleteOptions = {}): WriteResult {
    const target = { group: t.group, plural: t.plural, name };
    const old = this.space(t).get(idOf(t.namespaced ? ns : undefined, name));
    if (old === undefined) return { ok: false, error: notFound(target) };
    const pre = opts.preconditions;
    if (pre?.uid !== undefined && pre.uid !== old.metadata.uid) {
      return { ok: false, error: conflict(target, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid ?? ''}`) };
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== old.metadata.resourceVersion) {
      return { ok: false, error: conflict(target, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`) };
    }
    if (opts.propagationPolicy === 'Orphan' && old.metadata.uid !== undefined) this.orphanDependents(old.metadata.uid);
    const graceful = this.waitsForKubelet(t, old) && opts.gracePeriodSeconds !== 0;
    const finalizers = (old.metadata.finalizers ?? []).length > 0;
    if (!graceful && !finalizers) return { ok: true, object: this.remove(t, clone(old)) };
    if (old.metadata.deletionTimestamp !== undefined && !(opts.gracePeriodSeconds === 0 && old.metadata.deletionGracePeriodSeconds !== 0)) {
      return { ok: true, object: clone(old) };
    }
    const next = clone(old);
    next.metadata.deletionTimestamp ??= timestamp(this.now());
    const podGrace = (old.spec as { terminationGracePeriodSeconds?: number } | undefined)?.terminationGracePeriodSeconds;
    next.metadata.deletionGracePeriodSeconds = graceful ? (opts.gracePeriodSeconds ?? podGrace ?? 30) : 0;
    return { ok: true, object: this.put(t, 'MODIFIED', next, old) };
  }

  /** Objects of any type that name `uid` among their owner references. */
  dependentsOf(uid: string): { type: ResourceType; object: KubeObject }[] {
    const out: { type: ResourceType; object: KubeObject }[] = [];
    for (const type of this.registry.all()) {
      for (const o of this.space(type).values()) {
        if ((o.metadata.ownerReferences ?? []).some((r) => r.uid === uid)) out.push({ type, object: clone(o) });
      }
    }
    return out;
  }

  /** true when some object of any type has this uid. */
  exists(uid: string): boolean {
    for (const type of this.registry.all()) for (const o of this.space(type).values()) if (o.metadata.uid === uid) return true;
    return false;
  }

  /** Removes every object of a type (its CRD was deleted), with DELETED events. */
  dropType(t: ResourceType): void {
    for (const o of [...this.space(t).values()]) this.remove(t, clone(o));
    this.objects.delete(typeKey(t));
  }

  private waitsForKubelet(t: ResourceType, o: KubeObject): boolean {
    return this.opts.gracefulDelete?.(t, o) === true && o.metadata.deletionGracePeriodSeconds !== 0;
  }

  private orphanDependents(uid: string): void {
    for (const { type, object } of this.dependentsOf(uid)) {
      object.metadata.ownerReferences = (object.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
      this.put(type, 'MODIFIED', object, this.space(type).get(idOf(object.metadata.namespace, object.metadata.name ?? '')));
    }
  }

  /**
   * What the API server does to a custom resource before storing it: prune undeclared fields,
   * apply defaults, validate against the schema (with `old` for transition rules).
   */
  private admit(t: ResourceType, o: KubeObject, old?: KubeObject): { object: KubeObject } | { error: ApiError } {
    const schema = t.schema;
    if (schema === undefined || this.opts.validateCustomResources === false) return { object: o };
    const pruned = prune(o as unknown as Json, schema, true);
    const object = applyDefaults(pruned, schema) as unknown as KubeObject;
    let v = this.validators.get(typeKey(t));
    if (v === undefined || v.schema !== schema) {
      v = { schema, validator: new SchemaValidator(schema) };
      this.validators.set(typeKey(t), v);
    }
    const causes = v.validator.causes(object as unknown as Json, old as unknown as Json | undefined);
    if (causes.length > 0) return { error: invalid(t.kind, t.group, o.metadata.name ?? '', causes) };
    return { object };
  }

  private space(t: Pick<ResourceType, 'group' | 'plural'>): Map<string, KubeObject> {
    const key = typeKey(t);
    let s = this.objects.get(key);
    if (s === undefined) {
      s = new Map();
      this.objects.set(key, s);
    }
    return s;
  }

  private put(t: ResourceType, type: 'ADDED' | 'MODIFIED', written: KubeObject, previous?: KubeObject): KubeObject {
    this.rv += 1n;
    written.metadata.resourceVersion = String(this.rv);
    const o = t.custom === true ? withSortedKeys(written as unknown as Json) as unknown as KubeObject : written;
    this.space(t).set(idOf(o.metadata.namespace, o.metadata.name ?? ''), o);
    this.emit({ rv: this.rv, type, typeKey: typeKey(t), object: clone(o), ...(previous !== undefined ? { previous: clone(previous) } : {}) });
    return clone(o);
  }

  private remove(t: ResourceType, o: KubeObject): KubeObject {
    this.space(t).delete(idOf(o.metadata.namespace, o.metadata.name ?? ''));
    this.rv += 1n;
    o.metadata.resourceVersion = String(this.rv);
    this.emit({ rv: this.rv, type: 'DELETED', typeKey: typeKey(t), object: clone(o) });
    return clone(o);
  }

  private emit(e: StoreEvent): void {
    this.log.append(e);
  }
}

/** JSON object guard for bodies. */
export function isKubeObject(v: unknown): v is KubeObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as JsonObject).metadata === 'object';
}
