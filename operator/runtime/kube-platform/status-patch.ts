/**
 * The JSON merge patch (RFC 7386) taking `from` to `to` (pure): keys of `to` that differ are
 * set (objects recursively, arrays and scalars whole), keys only in `from` become `null`
 * (removed). Applying the result to `from` gives `to`; `undefined` means no change. Arrays and
 * scalars differ when they differ as JSON values (same-json.ts: the order of the keys of objects
 * inside an array does not count — the API server sorts a custom resource's keys).
 */
import { sameJson } from '../../controller/status/same-json.js';

type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function mergePatchBetween(from: Json, to: Json): Json {
  if (!isObject(from) || !isObject(to)) return sameJson(from, to) ? undefined : to;
  const patch: Record<string, Json> = {};
  for (const key of Object.keys(from)) if (!(key in to) || to[key] === undefined) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const sub = key in from ? mergePatchBetween(from[key], value) : value;
    if (sub !== undefined) patch[key] = sub;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}
