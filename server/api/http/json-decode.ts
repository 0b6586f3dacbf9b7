/**
 * Gateway request JSON → protobuf message, with jsonpb's input leniency (ETCD-FACTS §4.2).
 *
 * Contract (pure):
 * - accepts original proto field names and lowerCamelCase names (`create_revision` or
 *   `createRevision`, `request_put` or `requestPut`): for every key holding an upper-case letter,
 *   a snake_case copy is added unless present, at every depth (the generated `fromJSON` reads the
 *   original names and ignores keys it does not know, so the copies are harmless);
 * - an empty (or all-whitespace) body and `null` decode as the empty message, like grpc-gateway;
 * - any other non-object, malformed JSON or a value `fromJSON` cannot convert (a non-numeric
 *   int64, a non-string bytes field) is an InvalidArgument status with a readable message.
 * Known leniency beyond jsonpb: unknown fields are ignored, unknown enum names become
 * UNRECOGNIZED (-1) instead of failing.
 */
import type { GatewayStatus } from './gateway-status.js';
import { GatewayCode } from './http-status.js';

export interface JsonMessageFns<T> {
  fromJSON(object: unknown): T;
  toJSON(message: T): unknown;
}

export type Decoded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly status: GatewayStatus };

const invalid = (message: string): { ok: false; status: GatewayStatus } => ({
  ok: false,
  status: { code: GatewayCode.InvalidArgument, message },
});

/** Adds snake_case aliases of camelCase keys, recursively; returns a new value. */
export function withOriginalFieldNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withOriginalFieldNames);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = withOriginalFieldNames(v);
  for (const key of Object.keys(out)) {
    if (!/[A-Z]/.test(key)) continue;
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (!(snake in out)) out[snake] = out[key];
  }
  return out;
}

/** Decodes one already-parsed JSON value into a message. */
export function decodeJsonValue<T>(fns: JsonMessageFns<T>, value: unknown): Decoded<T> {
  if (value === null || value === undefined) value = {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return invalid(`request body must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value}`);
  }
  try {
    return { ok: true, value: fns.fromJSON(withOriginalFieldNames(value)) };
  } catch (err) {
    return invalid(`invalid request body: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Decodes a whole request body (one JSON object, or nothing). */
export function decodeJsonText<T>(fns: JsonMessageFns<T>, text: string): Decoded<T> {
  if (text.trim() === '') return decodeJsonValue(fns, {});
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return invalid(`invalid JSON in request body: ${err instanceof Error ? err.message : String(err)}`);
  }
  return decodeJsonValue(fns, parsed);
}
