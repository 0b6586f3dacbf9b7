/**
 * Snapshots in local mode: spec.upgrade.snapshot.volume resolved against the cluster's directory
 * (layout.ts), e.g. `demo.kvstore/snapshots/` (naming and pruning: ../snapshot-files.ts).
 */
import { SnapshotFiles } from '../snapshot-files.js';
import type { LocalLayout } from './layout.js';

export class SnapshotDir extends SnapshotFiles {
  constructor(layout: LocalLayout) {
    super((cluster) => layout.snapshotDir(cluster.spec.upgrade.snapshot.volume));
  }
}
