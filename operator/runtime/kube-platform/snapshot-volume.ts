/**
 * Snapshots on the operator's snapshot volume (`--snapshot-dir`, a PVC the operator pod mounts):
 * the files of cluster `<ns>/<name>` live in `<dir>/<ns>/`, so clusters of the same name in other
 * namespaces never share or prune each other's files (naming and pruning: ../snapshot-files.ts).
 */
import { join, resolve } from 'node:path';
import { namespaceOf } from '../../controller/builders/names.js';
import { SnapshotFiles } from '../snapshot-files.js';

export { isSnapshotOf } from '../snapshot-files.js';

export class SnapshotVolume extends SnapshotFiles {
  constructor(root: string) {
    const dir = resolve(root);
    super((cluster) => join(dir, namespaceOf(cluster)));
  }
}
