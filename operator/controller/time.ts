/**
 * RFC 3339 times as reconcile handles them: the pass time comes in as `observed.now`; these helpers
 * only convert and compare the given strings (they never read a clock). Output is second precision
 * in UTC (`2026-01-02T03:04:05Z`), as Kubernetes writes metav1.Time.
 */

/** Milliseconds since the epoch; NaN when `t` is not a time. */
export function toMillis(t: string): number {
  return Date.parse(t);
}

/** `t` plus `seconds`, as RFC 3339 (second precision). */
export function addSeconds(t: string, seconds: number): string {
  return formatMillis(toMillis(t) + seconds * 1000);
}

/** Whole seconds from `from` to `to` (rounded up; negative when `to` is earlier; 0 if unparseable). */
export function secondsBetween(from: string, to: string): number {
  const d = toMillis(to) - toMillis(from);
  return Number.isNaN(d) ? 0 : Math.ceil(d / 1000);
}

/** `2026-01-02T03:04:05Z` → `20260102T030405Z` (snapshot file names). */
export function compactTime(t: string): string {
  const ms = toMillis(t);
  if (Number.isNaN(ms)) return t.replace(/[^0-9A-Za-z]/g, '');
  return formatMillis(ms).replace(/[-:]/g, '');
}

function formatMillis(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
