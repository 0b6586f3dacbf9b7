/**
 * Validates custom resources against a CustomResourceDefinition's openAPIV3Schema with ajv, the
 * way the API server with strict field validation treats them: a field not in the schema is an
 * error unless the schema says `additionalProperties` or `x-kubernetes-preserve-unknown-fields`.
 * Kubernetes' own keywords (`x-kubernetes-*`, `nullable`) and OpenAPI formats are accepted.
 * CEL rules (`x-kubernetes-validations`) are not evaluated.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { K8sObject } from './yaml-docs.js';
import type { ValidationResult } from './k8s-validate.js';

type Schema = Record<string, unknown>;

/** A deep copy of `schema` where every object schema with `properties` rejects unknown keys. */
export function strictSchema(schema: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = strictValue(key, value);
  const isOpen = 'additionalProperties' in schema || schema['x-kubernetes-preserve-unknown-fields'] === true;
  if ('properties' in schema && !isOpen) out.additionalProperties = false;
  return out;
}

function strictValue(key: string, value: unknown): unknown {
  if (key === 'default' || key === 'example' || key === 'enum') return value;
  if (Array.isArray(value)) return value.map((v) => (isSchemaObject(v) ? strictSchema(v) : v));
  if (!isSchemaObject(value)) return value;
  if (key === 'properties' || key === 'patternProperties' || key === 'definitions') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSchemaObject(v) ? strictSchema(v) : v]));
  }
  return strictSchema(value);
}

function isSchemaObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export interface CrdVersion {
  readonly group: string;
  readonly kind: string;
  readonly version: string;
  readonly validate: ValidateFunction;
}

/** One validator per served version of a CRD object. */
export function crdValidators(crd: K8sObject): CrdVersion[] {
  const spec = crd.spec as { group: string; names: { kind: string }; versions: { name: string; served: boolean; schema?: { openAPIV3Schema?: Schema } }[] };
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  return spec.versions
    .filter((v) => v.served)
    .map((v) => {
      const schema = v.schema?.openAPIV3Schema;
      if (schema === undefined) throw new Error(`CRD ${crd.metadata.name} version ${v.name} has no openAPIV3Schema`);
      return { group: spec.group, kind: spec.names.kind, version: v.name, validate: ajv.compile(strictSchema(schema)) };
    });
}

/** Validates a custom resource with the matching validator; an unknown apiVersion/kind is an error. */
export function validateCustom(obj: K8sObject, validators: readonly CrdVersion[]): ValidationResult {
  const v = validators.find((x) => `${x.group}/${x.version}` === obj.apiVersion && x.kind === obj.kind);
  if (v === undefined) return { ok: false, errors: [`no CRD serves ${obj.apiVersion} ${obj.kind}`] };
  if (v.validate(obj)) return { ok: true };
  return { ok: false, errors: (v.validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'} ${JSON.stringify(e.params)}`) };
}
