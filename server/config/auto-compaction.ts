/**
 * --auto-compaction-mode + --auto-compaction-retention → AutoCompaction.
 *
 * periodic: a bare non-negative integer is hours (`1` → 1 h); otherwise (3.3+) a Go duration
 *           such as `30m`, `1h30m`, `90s`. Before 3.3 only whole hours are accepted.
 * revision: a non-negative integer count of revisions to keep.
 * A retention of zero (in either mode) switches auto compaction off (`undefined`).
 */
import type { VersionProfile } from '../version/profile.js';
import { parseGoDuration } from './duration.js';
import type { AutoCompaction } from './types.js';

export type AutoCompactionResult = { readonly ok: true; readonly value: AutoCompaction | undefined } | { readonly ok: false; readonly message: string };

const HOUR_MS = 3_600_000;

export function resolveAutoCompaction(mode: string, retention: string, profile: VersionProfile): AutoCompactionResult {
  const text = retention.trim();
  const invalid = (must: string): AutoCompactionResult => ({
    ok: false,
    message: `invalid value ${JSON.stringify(retention)} for flag --auto-compaction-retention: ${must} (--auto-compaction-mode=${mode})`,
  });
  if (mode === 'revision') {
    if (!/^[0-9]+$/.test(text)) return invalid('must be a non-negative integer number of revisions');
    const count = BigInt(text);
    return { ok: true, value: count === 0n ? undefined : { mode: 'revision', retention: count } };
  }
  if (mode !== 'periodic') return { ok: false, message: `invalid value ${JSON.stringify(mode)} for flag --auto-compaction-mode: must be one of periodic, revision` };
  let retentionMs: number;
  if (/^[0-9]+$/.test(text)) {
    retentionMs = Number(text) * HOUR_MS;
  } else if (profile.compactionRetentionDurations) {
    const d = parseGoDuration(text);
    if (!d.ok || d.ms < 0) return invalid('must be a number of hours or a valid duration such as 30m or 1h30m');
    retentionMs = d.ms;
  } else {
    return invalid(`must be a whole number of hours in ${profile.minor}`);
  }
  if (!Number.isSafeInteger(Math.round(retentionMs))) return invalid('is too large');
  return { ok: true, value: retentionMs === 0 ? undefined : { mode: 'periodic', retentionMs } };
}
