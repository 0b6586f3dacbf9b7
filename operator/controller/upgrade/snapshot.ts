/**
 * The pre-upgrade snapshot: its file name, the TakeSnapshot action aimed at the leader, and which
 * observed outcome belongs to the current upgrade. The file is written by the executor under the
 * snapshot volume as `<cluster>-<from>-to-<to>-<yyyymmddThhmmssZ>.db`. Pure.
 */
import type { UpgradeStatus } from '../../api/types.js';
import type { Action, ObservedMember, Observed, SnapshotOutcome } from '../model.js';
import { compactTime, toMillis } from '../time.js';

export function snapshotFileName(cluster: string, from: string, to: string, now: string): string {
  return `${cluster}-${from}-to-${to}-${compactTime(now)}.db`;
}

export function takeSnapshot(cluster: string, up: UpgradeStatus, leader: ObservedMember, now: string): Action {
  return { kind: 'TakeSnapshot', member: leader.name, clientURL: leader.clientURL, file: snapshotFileName(cluster, up.from, up.to, now), forVersion: up.to };
}

/** The outcome of this upgrade's TakeSnapshot, if the observation carries one. */
export function outcomeFor(observed: Observed, up: UpgradeStatus): SnapshotOutcome | undefined {
  const o = observed.snapshotOutcome;
  if (o === undefined || o.forVersion !== up.to) return undefined;
  if (o.ok && toMillis(o.record.takenAt) < toMillis(up.startedAt)) return undefined;
  return o;
}

/** How to restore the pre-upgrade snapshot, for people reading an event. */
export function restoreHint(file: string | undefined): string {
  if (file === undefined) return 'no pre-upgrade snapshot is recorded; restore from your own backup';
  return `restore the pre-upgrade snapshot ${file} into a new cluster: kvstorectl snapshot restore ${file} --data-dir <new data dir>, then start the members from it at the old version`;
}
