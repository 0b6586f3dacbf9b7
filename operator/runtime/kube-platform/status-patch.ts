/**
 * The JSON merge patch (RFC 7386) taking `from` to `to` (pure): keys of `to` that differ are
 * set (objects recursively, arrays and scalars whole), keys only in `from` become `null`
 * (removed). Applying the result to `from` gives `to`; `undefined` means no change.
 */
type Json = unknown;

const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function mergePatchBetween(from: Json, to: Json): Json {
  if (!isObject(from) || !isObject(to)) return JSON.stringify(from) === JSON.stringify(to) ? undefined : to;
  const patch: Record<string, Json> = {};
  for (const key of Object.keys(from)) if (!(key in to) || to[key] === undefined) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const sub = key in from ? mergePatchBetween(from[key], value) : value;
    if (sub !== undefined) patch[key] = sub;
  }
  return Object.keys(patch).length === 0 ? undefined : patch;
}
