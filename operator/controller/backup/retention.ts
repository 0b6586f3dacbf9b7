/**
 * Which backups a retention policy deletes, applied after each successful backup. Pure.
 *
 * Rules: sort by the time in the name (oldest first); delete those older than `maxAgeHours`
 * (when set), then the oldest until at most `maxCount` remain. The backup just taken (`keep`)
 * is never deleted, whatever its age or the count.
 */
import type { BackupSpec, RetainedBackup } from '../../api/types.js';
import { toMillis } from '../time.js';

export function selectPrune(stored: readonly RetainedBackup[], retention: BackupSpec['retention'], now: string, keep: string): readonly string[] {
  const sorted = [...stored].sort((a, b) => toMillis(a.time) - toMillis(b.time) || a.name.localeCompare(b.name));
  const nowMs = toMillis(now);
  const drop = new Set<string>();
  if (retention.maxAgeHours !== undefined) {
    const limit = nowMs - retention.maxAgeHours * 3600 * 1000;
    for (const b of sorted) if (toMillis(b.time) < limit && b.name !== keep) drop.add(b.name);
  }
  let left = sorted.filter((b) => !drop.has(b.name)).length;
  for (const b of sorted) {
    if (left <= retention.maxCount) break;
    if (drop.has(b.name) || b.name === keep) continue;
    drop.add(b.name);
    left--;
  }
  return sorted.filter((b) => drop.has(b.name)).map((b) => b.name);
}
