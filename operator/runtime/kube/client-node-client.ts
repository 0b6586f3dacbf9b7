/**
 * `KubeClient` over @kubernetes/client-node 1.4: KubernetesObjectApi (any apiVersion/kind, with
 * the API server's discovery telling plural names and scope), CustomObjectsApi for the status
 * subresource of custom resources, CoreV1Api for Events and pod logs.
 *
 * client-node answers typed model instances (Date objects for timestamps); results are turned
 * back into wire JSON (`JSON.parse(JSON.stringify(x))`), which is exact for the kinds the
 * operator uses (only ListMeta.continue, JSON schema and network-policy fields are renamed by
 * the models, and none of them is read here). Thrown errors become `KubeError` values
 * (kube/errors.ts); a kind the server does not serve (CRD not installed) is `NotFound`.
 */
import {
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type KubernetesObject,
} from '@kubernetes/client-node';
import { errorFromThrown } from './errors.js';
import {
  KubeErrorKind,
  type CoreEvent,
  type KubeClient,
  type KubeList,
  type KubeObject,
  type KubeResult,
  type ListQuery,
  type ObjectRef,
  type PodLogRef,
} from './types.js';

/** KubernetesObjectApi with its discovery lookups made public. */
class DiscoveringObjectApi extends KubernetesObjectApi {
  /** Plural resource name of `kind` in `apiVersion`, or undefined when the server does not serve it. */
  async pluralOf(apiVersion: string, kind: string): Promise<string | undefined> {
    return (await this.resource(apiVersion, kind))?.name;
  }

  /** URL path of the collection of `kind` in `namespace` (what list and watch request). */
  collectionPathOf(apiVersion: string, kind: string, namespace: string): Promise<string> {
    return this.specUriPath({ apiVersion, kind, metadata: { namespace } }, 'list');
  }
}

function wire<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function header(ref: ObjectRef): KubernetesObject & { metadata: { name: string; namespace: string } } {
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata: { name: ref.name, namespace: ref.namespace } };
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

async function attempt<T>(call: () => Promise<T>): Promise<KubeResult<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (thrown) {
    const error = errorFromThrown(thrown);
    if (error.kind === KubeErrorKind.Unreachable && /Unrecognized API version and kind/.test(error.message)) {
      return { ok: false, error: { ...error, kind: KubeErrorKind.NotFound, status: 404 } };
    }
    return { ok: false, error };
  }
}

export class ClientNodeKubeClient implements KubeClient {
  readonly #objects: DiscoveringObjectApi;
  readonly #custom: CustomObjectsApi;
  readonly #core: CoreV1Api;

  constructor(kubeConfig: KubeConfig) {
    this.#objects = kubeConfig.makeApiClient(DiscoveringObjectApi as unknown as typeof KubernetesObjectApi) as DiscoveringObjectApi;
    this.#custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.#core = kubeConfig.makeApiClient(CoreV1Api);
  }

  get<T extends KubeObject>(ref: ObjectRef): Promise<KubeResult<T>> {
    return attempt(async () => wire<T>(await this.#objects.read(header(ref))));
  }

  list<T extends KubeObject>(q: ListQuery): Promise<KubeResult<KubeList<T>>> {
    return attempt(async () => {
      const list = await this.#objects.list(q.apiVersion, q.kind, q.namespace, undefined, undefined, undefined, q.fieldSelector, q.labelSelector);
      const items = (list.items ?? []).map((item) => ({ ...wire<T>(item), apiVersion: q.apiVersion, kind: q.kind }));
      return { items, resourceVersion: list.metadata?.resourceVersion ?? '' };
    });
  }

  create<T extends KubeObject>(object: T): Promise<KubeResult<T>> {
    return attempt(async () => wire<T>(await this.#objects.create(wire<KubernetesObject>(object))));
  }

  replace<T extends KubeObject>(object: T): Promise<KubeResult<T>> {
    return attempt(async () => wire<T>(await this.#objects.replace(wire<KubernetesObject>(object))));
  }

  mergePatch<T extends KubeObject>(ref: ObjectRef, patch: Record<string, unknown>): Promise<KubeResult<T>> {
    return attempt(async () => {
      const body = { ...patch, ...header(ref) };
      const metadata = patch['metadata'];
      if (typeof metadata === 'object' && metadata !== null) body.metadata = { ...metadata, ...header(ref).metadata };
      const answer = await this.#objects.patch(body, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch);
      return wire<T>(answer);
    });
  }

  /** Custom resources only (a core-group kind answers Invalid without a request). */
  patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown): Promise<KubeResult<T>> {
    const { group, version } = splitApiVersion(ref.apiVersion);
    if (group === '') {
      const message = `status patch is for custom resources, not ${ref.apiVersion} ${ref.kind}`;
      return Promise.resolve({ ok: false, error: { kind: KubeErrorKind.Invalid, status: 0, message } });
    }
    return attempt(async () => {
      const plural = await this.#objects.pluralOf(ref.apiVersion, ref.kind);
      if (plural === undefined) throw new Error(`Unrecognized API version and kind: ${ref.apiVersion} ${ref.kind}`);
      const answer: unknown = await this.#custom.patchNamespacedCustomObjectStatus(
        { group, version, namespace: ref.namespace, plural, name: ref.name, body: { status } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      return wire<T>(answer);
    });
  }

  delete(ref: ObjectRef): Promise<KubeResult<void>> {
    return attempt(async () => {
      await this.#objects.delete(header(ref), undefined, undefined, undefined, undefined, 'Background');
    });
  }

  createEvent(event: CoreEvent): Promise<KubeResult<CoreEvent>> {
    return attempt(async () => {
      const namespace = event.metadata.namespace ?? event.involvedObject.namespace;
      const created = await this.#core.createNamespacedEvent({ namespace, body: wire(event) });
      return wire<CoreEvent>(created);
    });
  }

  podLog(ref: PodLogRef): Promise<KubeResult<string>> {
    return attempt(async () => String(await this.#core.readNamespacedPodLog({ namespace: ref.namespace, name: ref.name, container: ref.container, tailLines: ref.tailLines })));
  }

  /** URL path of a collection, for list+watch (informer.ts); discovery errors as values. */
  collectionPath(apiVersion: string, kind: string, namespace: string): Promise<KubeResult<string>> {
    return attempt(() => this.#objects.collectionPathOf(apiVersion, kind, namespace));
  }
}
