/**
 * Backup names: `<cluster>-<yyyymmddThhmmssZ>.db`, the time the backup was started (UTC, second
 * precision). The name alone tells whose backup it is and how old it is, in a directory and in
 * an object store alike, so retention needs no metadata. A cluster whose name extends this one
 * (`demo-x`) never matches `demo`'s pattern (a digit must follow the dash). Pure.
 */
import { compactTime, toMillis } from '../time.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The backup name for cluster `cluster` started at `now` (RFC 3339). */
export function backupName(cluster: string, now: string): string {
  return `${cluster}-${compactTime(now)}.db`;
}

/** The RFC 3339 time encoded in a backup name of `cluster`; undefined when `name` is not one. */
export function backupTime(cluster: string, name: string): string | undefined {
  const m = new RegExp(`^${escape(cluster)}-(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(\\d{2})Z\\.db$`).exec(name);
  if (m === null) return undefined;
  const t = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`;
  return Number.isNaN(toMillis(t)) ? undefined : t;
}
