/**
 * Semantic equality of JSON-shaped values, the way the API server tells a write that changes
 * nothing: the order of an object's keys does not matter (a custom resource comes back with its
 * keys sorted), a key whose value is `undefined` counts as absent (it is never sent), array
 * order matters, scalars and null compare by value. Pure.
 */
type Json = unknown;

const isObject = (v: Json): v is Readonly<Record<string, Json>> => typeof v === 'object' && v !== null && !Array.isArray(v);

const definedKeys = (o: Readonly<Record<string, Json>>): string[] => Object.keys(o).filter((k) => o[k] !== undefined);

export function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => sameJson(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = definedKeys(a);
  if (keys.length !== definedKeys(b).length) return false;
  return keys.every((k) => b[k] !== undefined && sameJson(a[k], b[k]));
}
