/**
 * The Kubernetes port of the operator: the few API calls it makes, on plain JSON objects (wire
 * shape: timestamps are RFC 3339 strings), with expected failures as values.
 *
 * - Objects are namespaced and addressed by apiVersion + kind + namespace + name; any kind
 *   works (core, apps, policy, coordination, custom resources).
 * - `replace` is optimistic: it sends `metadata.resourceVersion`, a stale one answers `Conflict`.
 * - `mergePatch` sends `application/merge-patch+json`; `patchStatus` merge-patches the
 *   `/status` subresource with `{ status }` (custom resources).
 * - Every call resolves (never rejects) with `{ ok: true, value }` or `{ ok: false, error }`;
 *   `error.kind` says what happened (kube/errors.ts maps HTTP answers to kinds).
 * Implementations: kube/client-node-client.ts (real API server), kube/memory-client.ts (tests).
 */

export interface OwnerReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly uid: string;
  readonly controller?: boolean;
  readonly blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly generateName?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly creationTimestamp?: string;
  readonly deletionTimestamp?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly OwnerReference[];
  readonly finalizers?: readonly string[];
}

export interface KubeObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
}

/** Where an object lives. */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export interface ListQuery {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

export interface KubeList<T> {
  readonly items: readonly T[];
  /** The list's resourceVersion (where a watch continues from). */
  readonly resourceVersion: string;
}

export const KubeErrorKind = {
  /** 404: the object (or its kind) does not exist. */
  NotFound: 'NotFound',
  /** 409 reason Conflict: stale resourceVersion (lost an optimistic-concurrency race). */
  Conflict: 'Conflict',
  /** 409 reason AlreadyExists: create of a name that exists. */
  AlreadyExists: 'AlreadyExists',
  /** 410: resourceVersion too old (watch/list must start over). */
  Gone: 'Gone',
  /** 400/422: the request or object was refused as invalid. */
  Invalid: 'Invalid',
  /** 401/403. */
  Forbidden: 'Forbidden',
  /** 429 or 5xx: try again later. */
  Unavailable: 'Unavailable',
  /** No HTTP answer (connection refused, reset, timeout). */
  Unreachable: 'Unreachable',
  /** Any other answer. */
  Unexpected: 'Unexpected',
} as const;
export type KubeErrorKind = (typeof KubeErrorKind)[keyof typeof KubeErrorKind];

export interface KubeError {
  readonly kind: KubeErrorKind;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The API server's Status message, or the transport error's. */
  readonly message: string;
  readonly cause?: unknown;
}

export type KubeResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: KubeError };

/** core/v1 Event, as the recorder writes it. */
export interface CoreEvent extends KubeObject {
  readonly involvedObject: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly namespace: string;
    readonly name: string;
    readonly uid?: string;
    readonly resourceVersion?: string;
  };
  readonly reason: string;
  readonly message: string;
  readonly type: 'Normal' | 'Warning';
  readonly count: number;
  readonly firstTimestamp: string;
  readonly lastTimestamp: string;
  readonly source: { readonly component: string; readonly host?: string };
  readonly reportingComponent?: string;
  readonly reportingInstance?: string;
}

export interface KubeClient {
  get<T extends KubeObject>(ref: ObjectRef): Promise<KubeResult<T>>;
  list<T extends KubeObject>(query: ListQuery): Promise<KubeResult<KubeList<T>>>;
  /** Creates `object` (metadata.name or generateName required); answers the stored object. */
  create<T extends KubeObject>(object: T): Promise<KubeResult<T>>;
  /** Replaces the object; with metadata.resourceVersion set, a stale version is a Conflict. */
  replace<T extends KubeObject>(object: T): Promise<KubeResult<T>>;
  /** JSON merge patch (RFC 7386) of the main resource. */
  mergePatch<T extends KubeObject>(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeResult<T>>;
  /** Merge-patches `{ status }` into the status subresource. */
  patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown): Promise<KubeResult<T>>;
  /** Deletes (background propagation: dependents are garbage-collected after the owner). */
  delete(ref: ObjectRef): Promise<KubeResult<void>>;
  /** Creates a core/v1 Event in `event.metadata.namespace`. */
  createEvent(event: CoreEvent): Promise<KubeResult<CoreEvent>>;
  /** The last `tailLines` lines of a pod container's log (`GET pods/<name>/log`), as text. */
  podLog(ref: PodLogRef): Promise<KubeResult<string>>;
}

/** Which log `podLog` reads. */
export interface PodLogRef {
  readonly namespace: string;
  readonly name: string;
  readonly container: string;
  readonly tailLines: number;
}

/** The reference of an object. */
export function refOf(object: KubeObject): ObjectRef {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name,
  };
}

/** `namespace/name`, the key of an object in queues and caches. */
export function keyOf(object: { readonly metadata: Pick<ObjectMeta, 'name' | 'namespace'> }): string {
  const ns = object.metadata.namespace ?? '';
  return ns === '' ? object.metadata.name : `${ns}/${object.metadata.name}`;
}
