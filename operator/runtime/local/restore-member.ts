/**
 * Local mode's counterpart of the Kubernetes init container: before a founding member of a
 * cluster created from a snapshot first starts, its empty data dir is restored from the snapshot
 * (server/snapshot/restore/, what `kvstorectl snapshot restore` runs) with the member's name, peer
 * URL, the cluster's `--initial-cluster` and token — so every member gets the same new cluster id
 * and log, the snapshot's revisions, and a new member id.
 *
 * Contract: only when the data dir does not exist (a member that has data, restored or not, is
 * never restored again); the file's SHA-256 trailer must still be the one the operator checked
 * (`sha256`), else nothing is written; a failed restore leaves no data dir (restoreDataDir stages
 * it). Never throws.
 */
import { stat } from 'node:fs/promises';
import { openBolt } from '../../../server/snapshot/bbolt/index.js';
import { restoreDataDir } from '../../../server/snapshot/restore/build-data-dir.js';
import { parseRestoreTarget } from '../../../server/snapshot/restore/restore-target.js';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import { inspectSnapshot } from '../../controller/restore/inspect-snapshot.js';
import type { RestoreRequest } from '../../controller/restore/restore-check.js';

export interface MemberRestore {
  readonly request: RestoreRequest;
  readonly dataDir: string;
  readonly name: string;
  readonly peerURL: string;
  /** `name=peerURL,…` of every founding member. */
  readonly initialCluster: string;
  readonly token: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Restores the member's data dir when it is absent; `restored` false when it already had one. */
export async function restoreMember(r: MemberRestore): Promise<PortResult<{ readonly restored: boolean }>> {
  try {
    if (await exists(r.dataDir)) return portOk({ restored: false });
  } catch (err) {
    return portFail(`restore ${r.name}: ${(err as Error).message}`);
  }
  const checked = await inspectSnapshot(r.request.file);
  if (!checked.ok) return portFail(`restore ${r.name}: ${checked.message}`);
  if (checked.facts.sha256 !== r.request.sha256) return portFail(`restore ${r.name}: snapshot ${r.request.file} changed since it was checked (SHA-256 ${checked.facts.sha256}, expected ${r.request.sha256})`);
  const target = parseRestoreTarget({ name: r.name, initialCluster: r.initialCluster, initialClusterToken: r.token, initialAdvertisePeerUrls: r.peerURL });
  if (!target.ok) return portFail(`restore ${r.name}: ${target.message}`);
  const done = await restoreDataDir({ snapshotPath: r.request.file, dataDir: r.dataDir, skipHashCheck: false, target: target.target }, { openSnapshot: openBolt });
  return done.ok ? portOk({ restored: true }) : portFail(`restore ${r.name} from ${r.request.file}: ${done.message}`);
}
