/**
 * The verbs on a resource path, over the object store: get, list, create, replace, patch
 * (merge, strategic-as-merge, JSON patch, apply as create-or-merge), delete, deletecollection,
 * each on the main resource or its /status subresource. Answers a status code and a JSON body;
 * watches are served by watch-stream.ts.
 */
import { parse as parseYaml } from 'yaml';
import { isKubeObject, type DeleteOptions, type ObjectStore, type WriteMode, type WriteResult } from './object-store.js';
import { jsonPatch, mergePatch, PatchError } from './patch.js';
import { apiVersionOf, type ResourceType } from './resources.js';
import { selectorsOf } from './selectors.js';
import { badRequest, invalid, methodNotAllowed, notFound, unsupportedMediaType, type ApiError } from './status.js';
import type { Json, JsonObject, KubeObject, ObjectMeta } from './types.js';

/** A resource request, routed and with its type resolved. */
export interface ResourceRequest {
  readonly method: string;
  readonly type: ResourceType;
  readonly version: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly mode: WriteMode;
  readonly query: URLSearchParams;
  readonly contentType: string;
  /** The raw request body ('' when none). */
  readonly body: string;
}

/** A complete (non-streaming) answer. */
export interface Reply {
  readonly code: number;
  readonly body: Json;
}

function fail(e: ApiError): Reply {
  return { code: e.code, body: e.body };
}

/** An object as served through the requested version. */
function served(req: ResourceRequest, o: KubeObject): KubeObject {
  return { ...o, apiVersion: apiVersionOf(req.type.group, req.version) };
}

function written(req: ResourceRequest, r: WriteResult, code = 200): Reply {
  return r.ok ? { code, body: served(req, r.object) as unknown as Json } : fail(r.error);
}

type Parsed<T> = { readonly value: T } | { readonly error: ApiError };

function parseBody(req: ResourceRequest): Parsed<Json> {
  if (req.body.trim() === '') return { error: badRequest('the request body is empty') };
  try {
    return { value: (req.contentType.startsWith('application/apply-patch+yaml') ? parseYaml(req.body) : JSON.parse(req.body)) as Json };
  } catch (err) {
    return { error: badRequest(`the request body could not be decoded: ${(err as Error).message}`) };
  }
}

function deleteOptions(req: ResourceRequest, body: Json | undefined): DeleteOptions {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as JsonObject;
  const grace = req.query.get('gracePeriodSeconds') ?? (typeof b.gracePeriodSeconds === 'number' ? String(b.gracePeriodSeconds) : undefined);
  const policy = req.query.get('propagationPolicy') ?? (typeof b.propagationPolicy === 'string' ? b.propagationPolicy : undefined);
  const pre = (typeof b.preconditions === 'object' && b.preconditions !== null ? b.preconditions : {}) as JsonObject;
  return {
    ...(grace !== undefined ? { gracePeriodSeconds: Number(grace) } : {}),
    ...(policy === 'Orphan' || policy === 'Foreground' || policy === 'Background' ? { propagationPolicy: policy } : {}),
    preconditions: {
      ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
      ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}),
    },
  };
}

function patched(req: ResourceRequest, current: KubeObject, patch: Json): Parsed<KubeObject> {
  const type = req.contentType.split(';')[0]?.trim() ?? '';
  let result: Json | PatchError;
  if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json' || type === 'application/apply-patch+yaml') {
    result = mergePatch(current as unknown as Json, patch);
  } else if (type === 'application/json-patch+json') {
    result = jsonPatch(current as unknown as Json, patch);
  } else {
    return { error: unsupportedMediaType(type) };
  }
  if (result instanceof PatchError) {
    return { error: invalid(req.type.kind, req.type.group, req.name ?? '', [{ reason: 'FieldValueInvalid', message: result.message, field: '' }]) };
  }
  if (!isKubeObject(result)) return { error: badRequest('the patched document is not an object') };
  // A patch that does not name a resourceVersion is not a precondition.
  const patchMeta = typeof patch === 'object' && patch !== null && !Array.isArray(patch) ? patch.metadata : undefined;
  const namesRv = Array.isArray(patch)
    ? patch.some((op) => typeof op === 'object' && op !== null && !Array.isArray(op) && op.path === '/metadata/resourceVersion')
    : typeof patchMeta === 'object' && patchMeta !== null && !Array.isArray(patchMeta) && patchMeta.resourceVersion !== undefined;
  if (!namesRv) delete result.metadata.resourceVersion;
  return { value: result };
}

function patch(store: ObjectStore, req: ResourceRequest, name: string): Reply {
  const parsed = parseBody(req);
  if ('error' in parsed) return fail(parsed.error);
  const body = parsed.value;
  const current = store.get(req.type, req.namespace, name);
  if (current === undefined) {
    if (req.contentType.startsWith('application/apply-patch+yaml') && isKubeObject(body)) {
      const obj: KubeObject = body;
      const meta: ObjectMeta = { ...obj.metadata, name };
      return written(req, store.create(req.type, req.namespace, { ...obj, metadata: meta }), 201);
    }
    return fail(notFound({ group: req.type.group, plural: req.type.plural, name }));
  }
  const next = patched(req, current, body);
  if ('error' in next) return fail(next.error);
  return written(req, store.update(req.type, req.namespace, name, next.value, req.mode));
}

/** Answers a non-watch resource request. */
export function handleResource(store: ObjectStore, req: ResourceRequest): Reply {
  const { type, namespace, name } = req;
  if (req.method === 'GET' && name !== undefined) {
    const o = store.get(type, namespace, name);
    return o === undefined ? fail(notFound({ group: type.group, plural: type.plural, name })) : { code: 200, body: served(req, o) as unknown as Json };
  }
  if (req.method === 'GET' || (req.method === 'DELETE' && name === undefined)) {
    const match = selectorsOf(req.query);
    if ('error' in match) return fail(badRequest(match.error));
    const list = store.list({ type, namespace, match });
    if (req.method === 'DELETE') {
      const opts = deleteOptions(req, undefined);
      for (const o of list.items) store.delete(type, o.metadata.namespace, o.metadata.name ?? '', opts);
    }
    return {
      code: 200,
      body: {
        kind: `${type.kind}List`, apiVersion: apiVersionOf(type.group, req.version),
        metadata: { resourceVersion: list.resourceVersion },
        items: list.items.map((o) => served(req, o)) as unknown as Json,
      },
    };
  }
  if (req.method === 'POST' && name === undefined && req.mode === 'main') {
    const parsed = parseBody(req);
    if ('error' in parsed) return fail(parsed.error);
    const body = parsed.value;
    if (!isKubeObject(body)) return fail(badRequest('the body must be an object with metadata'));
    return written(req, store.create(type, namespace, body), 201);
  }
  if (name === undefined) return fail(methodNotAllowed());
  if (req.method === 'PUT') {
    const parsed = parseBody(req);
    if ('error' in parsed) return fail(parsed.error);
    const body = parsed.value;
    if (!isKubeObject(body)) return fail(badRequest('the body must be an object with metadata'));
    return written(req, store.update(type, namespace, name, body, req.mode));
  }
  if (req.method === 'PATCH') return patch(store, req, name);
  if (req.method === 'DELETE' && req.mode === 'main') {
    let body: Json | undefined;
    if (req.body.trim() !== '') {
      const parsed = parseBody(req);
      if ('error' in parsed) return fail(parsed.error);
      body = parsed.value;
    }
    return written(req, store.delete(type, namespace, name, deleteOptions(req, body)));
  }
  return fail(methodNotAllowed());
}
