/**
 * Whether the snapshot `spec.restoreFrom` names may seed a new cluster: the rules, pure, on the
 * check the engine gathered (restore-check.ts). First that applies:
 *   no check yet                       → wait (the file is being checked);
 *   the check failed                   → refuse with its reason (SnapshotMissing, SnapshotCorrupt, BackupNotFound, …);
 *   a SHA-256 is expected (spec.restoreFrom.sha256, else the backup record's) and differs → SnapshotCorrupt;
 *   the snapshot's cluster version or storage version is above spec.version's minor line → SnapshotTooNew
 *     (a member cannot run data a newer line wrote; an older snapshot is fine: the members raise its version);
 *   otherwise                          → restore from the checked file.
 */
import type { KvstoreClusterSpec } from '../../api/types.js';
import { parseVersion } from '../upgrade/version.js';
import type { RestoreCheck, RestoreRefusal, SnapshotFacts } from './restore-check.js';

export type RestoreDecision =
  | { readonly kind: 'wait'; readonly message: string }
  | { readonly kind: 'refuse'; readonly reason: RestoreRefusal; readonly message: string }
  | { readonly kind: 'restore'; readonly facts: SnapshotFacts };

/** The minor line a `3.<minor>[.<patch>]` version names, or undefined. */
function minorLine(version: string | undefined): number | undefined {
  if (version === undefined) return undefined;
  const m = /^3\.(\d+)(\.\d+)?$/.exec(version);
  return m === null ? undefined : Number(m[1]);
}

export function decideRestore(spec: KvstoreClusterSpec, check: RestoreCheck | undefined): RestoreDecision {
  if (check === undefined) return { kind: 'wait', message: 'checking the snapshot spec.restoreFrom names before any member is created' };
  if (!check.ok) return { kind: 'refuse', reason: check.reason, message: `${check.message}; no member was created` };
  const f = check.facts;
  const expected = spec.restoreFrom?.sha256 ?? check.recorded?.sha256;
  if (expected !== undefined && expected !== f.sha256) {
    const whose = spec.restoreFrom?.sha256 !== undefined ? 'spec.restoreFrom.sha256' : 'the backup record';
    return { kind: 'refuse', reason: 'SnapshotCorrupt', message: `snapshot ${f.file} has SHA-256 ${f.sha256}, ${whose} expects ${expected}; no member was created` };
  }
  const target = parseVersion(spec.version)?.minor;
  const written = [minorLine(f.clusterVersion), minorLine(f.storageVersion)].filter((m): m is number => m !== undefined);
  const newest = written.length === 0 ? undefined : Math.max(...written);
  if (target !== undefined && newest !== undefined && newest > target) {
    const what = f.clusterVersion !== undefined && minorLine(f.clusterVersion) === newest ? `cluster version ${f.clusterVersion}` : `storage of 3.${newest}`;
    return {
      kind: 'refuse',
      reason: 'SnapshotTooNew',
      message: `snapshot ${f.file} records ${what}, newer than spec.version ${spec.version} (3.${target}) can run; restore it at 3.${newest}.x or later; no member was created`,
    };
  }
  return { kind: 'restore', facts: f };
}
