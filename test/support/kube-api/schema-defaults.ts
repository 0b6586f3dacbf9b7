/**
 * Structural-schema defaulting for custom resources, as the API server does it on create and
 * update: walking `properties` of an OpenAPI v3 schema, a missing field with a `default` gets
 * that default; objects and array items are walked recursively. Validation and pruning are not
 * done (README.md). Pure: answers a defaulted copy.
 */
import { clone, type Json, type JsonObject } from './types.js';

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `value` with the schema's defaults filled in. */
export function applyDefaults(value: Json, schema: JsonObject | undefined): Json {
  if (schema === undefined) return value;
  if (Array.isArray(value)) {
    const items = isObject(schema.items) ? schema.items : undefined;
    return value.map((v) => applyDefaults(v, items));
  }
  if (!isObject(value)) return value;
  const props = isObject(schema.properties) ? schema.properties : undefined;
  const additional = isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  const out: JsonObject = { ...value };
  if (props !== undefined) {
    for (const [key, sub] of Object.entries(props)) {
      if (!isObject(sub)) continue;
      if (out[key] === undefined && sub.default !== undefined) out[key] = clone(sub.default);
      if (out[key] !== undefined) out[key] = applyDefaults(out[key], sub);
    }
  }
  if (additional !== undefined) {
    for (const key of Object.keys(out)) if (props?.[key] === undefined) out[key] = applyDefaults(out[key] ?? null, additional);
  }
  return out;
}
