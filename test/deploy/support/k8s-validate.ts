/**
 * Offline validation of Kubernetes objects against the built-in API schemas (kubernetes-models),
 * stricter than the models alone: like `kubectl apply` (field validation Strict, the default since
 * Kubernetes 1.27), a field the schema does not know is an error, so a misspelt `readinesProbe`
 * fails here instead of on the cluster.
 *
 * How unknown fields are found: the generated validator is run on a Proxy of the object that
 * records which keys the validator reads on each nested object. An object whose keys the
 * validator enumerates (a map such as labels) accepts any key; an object it never reads (an
 * opaque JSON value) is not judged; on every other object a key the validator never asked for is
 * unknown to the schema.
 */
import type { K8sObject } from './yaml-docs.js';

export type ValidationResult = { readonly ok: true } | { readonly ok: false; readonly errors: readonly string[] };

interface Visit {
  readonly path: string;
  readonly value: object;
  readonly read: Set<string>;
  enumerated: boolean;
}

type ValidateMethod = (this: unknown) => void;

/** The kubernetes-models module of a built-in `apiVersion` + `kind` (`apps/v1` + `Deployment` → `kubernetes-models/apps/v1/Deployment`). */
export function modelModule(apiVersion: string, kind: string): string {
  return `kubernetes-models/${apiVersion}/${kind}`;
}

async function validateMethodOf(apiVersion: string, kind: string): Promise<ValidateMethod | undefined> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(modelModule(apiVersion, kind))) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof Error && 'code' in err && (err.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED' || err.code === 'ERR_MODULE_NOT_FOUND')) return undefined;
    throw new Error(`loading the model of ${apiVersion} ${kind}`, { cause: err });
  }
  const model = mod[kind] as { prototype?: { validate?: ValidateMethod } } | undefined;
  return model?.prototype?.validate;
}

function track(value: unknown, path: string, visits: Visit[]): unknown {
  if (value === null || typeof value !== 'object') return value;
  const visit: Visit = { path, value, read: new Set(), enumerated: false };
  visits.push(visit);
  const children = new Map<string, unknown>();
  return new Proxy(value, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return v;
      visit.read.add(key);
      if (v === null || typeof v !== 'object') return v;
      if (!children.has(key)) children.set(key, track(v, `${path}/${key}`, visits));
      return children.get(key);
    },
    has(target, key) {
      if (typeof key === 'string') visit.read.add(key);
      return Reflect.has(target, key);
    },
    ownKeys(target) {
      visit.enumerated = true;
      return Reflect.ownKeys(target);
    },
  });
}

/**
 * Keys the generated validators never read although the API defines them: the generator drops
 * properties named `description` (CRD columns, JSONSchemaProps) and the `x-kubernetes-*`
 * extensions of JSONSchemaProps. They are not judged.
 */
function exempt(key: string): boolean {
  return key === 'description' || key.startsWith('x-kubernetes-');
}

function unknownFields(visits: readonly Visit[]): string[] {
  const out: string[] = [];
  for (const v of visits) {
    if (v.enumerated || Array.isArray(v.value) || v.read.size === 0) continue;
    for (const key of Object.keys(v.value)) if (!v.read.has(key) && !exempt(key)) out.push(`${v.path || '/'}${v.path ? '/' : ''}${key}: unknown field`);
  }
  return out;
}

function schemaErrors(err: unknown): string[] {
  const details = (err as { errors?: readonly { instancePath?: string; message?: string; params?: unknown }[] }).errors;
  if (Array.isArray(details) && details.length > 0) {
    return details.map((d) => `${d.instancePath || '/'}: ${d.message ?? 'invalid'} ${JSON.stringify(d.params ?? {})}`);
  }
  return [err instanceof Error ? err.message : String(err)];
}

/**
 * Validates a built-in object (core and the `*.k8s.io`/apps/policy groups). Rejects (throws) when
 * the apiVersion/kind has no model: the caller must use a CRD schema for custom resources.
 */
export async function validateBuiltin(obj: K8sObject): Promise<ValidationResult> {
  const validate = await validateMethodOf(obj.apiVersion, obj.kind);
  if (validate === undefined) throw new Error(`no built-in schema for ${obj.apiVersion} ${obj.kind}`);
  const visits: Visit[] = [];
  const errors: string[] = [];
  try {
    validate.call(track(structuredClone(obj), '', visits));
  } catch (err) {
    errors.push(...schemaErrors(err));
  }
  errors.push(...unknownFields(visits));
  return errors.length === 0 ? { ok: true } : { ok: false, errors };
}

/** Whether kubernetes-models has a schema for this apiVersion/kind. */
export async function isBuiltin(apiVersion: string, kind: string): Promise<boolean> {
  return (await validateMethodOf(apiVersion, kind)) !== undefined;
}
