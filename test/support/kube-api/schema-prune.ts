/**
 * Pruning of unknown fields in custom resources, as the API server does it for structural
 * schemas: a field not declared in `properties` is dropped unless the schema keeps unknown
 * fields (`x-kubernetes-preserve-unknown-fields: true`) or declares `additionalProperties`;
 * at the root, apiVersion, kind and metadata always stay. Pure: answers a pruned copy.
 */
import type { Json, JsonObject } from './types.js';

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value with undeclared fields removed (see the file header). */
export function prune(value: Json, schema: JsonObject | undefined, root = false): Json {
  if (schema === undefined || schema['x-kubernetes-preserve-unknown-fields'] === true && !isObject(schema.properties)) return value;
  if (Array.isArray(value)) {
    const items = isObject(schema.items) ? schema.items : undefined;
    return value.map((v) => prune(v, items));
  }
  if (!isObject(value)) return value;
  const props = isObject(schema.properties) ? schema.properties : {};
  const additional = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  const keepUnknown = schema['x-kubernetes-preserve-unknown-fields'] === true || schema.additionalProperties === true;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    const sub = props[key];
    if (root && (key === 'apiVersion' || key === 'kind' || key === 'metadata')) out[key] = v;
    else if (isObject(sub)) out[key] = prune(v, sub);
    else if (additional !== undefined) out[key] = prune(v, additional);
    else if (keepUnknown) out[key] = v;
  }
  return out;
}
