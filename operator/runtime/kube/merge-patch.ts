/**
 * JSON merge patch (RFC 7386), pure: objects merge key by key, `null` removes a key, anything
 * else (arrays included) replaces. Neither input is modified.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    // defineProperty: a `__proto__` key is data, not the prototype
    else Object.defineProperty(base, key, { value: applyMergePatch(base[key], value), enumerable: true, writable: true, configurable: true });
  }
  return base;
}
