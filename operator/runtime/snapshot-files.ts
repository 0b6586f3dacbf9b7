/**
 * `SnapshotStore` on a directory, shared by both platforms: the Kubernetes operator's snapshot
 * volume (`--snapshot-dir/<namespace>/`) and local mode's `<cluster>.kvstore/<volume>/`. Only the
 * directory of a cluster differs (`dirOf`). Files of cluster `<name>` are the ones reconcile names
 * `<name>-<from>-to-<to>-<yyyymmddThhmmssZ>.db`, so clusters whose name extends this one
 * (`demo-x`) never share or prune each other's files, and `.part` files are never listed.
 * Oldest first = by modification time, then name.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { KvstoreCluster } from '../api/types.js';
import { portFail, portOk, type PortResult, type SnapshotStore } from '../controller/ports.js';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `file` is a snapshot file of the cluster named `name`. */
export function isSnapshotOf(name: string, file: string): boolean {
  return new RegExp(`^${escape(name)}-\\d+\\.\\d+\\.\\d+-to-\\d+\\.\\d+\\.\\d+-\\d{8}T\\d{6}Z\\.db$`).test(file);
}

export class SnapshotFiles implements SnapshotStore {
  constructor(readonly dirOf: (cluster: KvstoreCluster) => string) {}

  pathOf(cluster: KvstoreCluster, fileName: string): string {
    return join(this.dirOf(cluster), fileName);
  }

  async prepare(cluster: KvstoreCluster): Promise<PortResult<void>> {
    try {
      await mkdir(this.dirOf(cluster), { recursive: true });
      return portOk(undefined);
    } catch (err) {
      return portFail(`create ${this.dirOf(cluster)}: ${(err as Error).message}`);
    }
  }

  async list(cluster: KvstoreCluster): Promise<PortResult<readonly string[]>> {
    const dir = this.dirOf(cluster);
    try {
      const names = (await readdir(dir)).filter((n) => isSnapshotOf(cluster.metadata.name, n));
      const files = await Promise.all(names.map(async (n) => ({ path: join(dir, n), mtime: (await stat(join(dir, n))).mtimeMs })));
      return portOk(files.sort((a, b) => a.mtime - b.mtime || a.path.localeCompare(b.path)).map((f) => f.path));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return portOk([]);
      return portFail(`list ${dir}: ${(err as Error).message}`);
    }
  }

  async prune(cluster: KvstoreCluster, keep: number): Promise<PortResult<readonly string[]>> {
    const files = await this.list(cluster);
    if (!files.ok) return files;
    const drop = files.value.slice(0, Math.max(0, files.value.length - keep));
    try {
      for (const f of drop) await rm(f, { force: true });
      return portOk(drop);
    } catch (err) {
      return portFail(`prune ${this.dirOf(cluster)}: ${(err as Error).message}`);
    }
  }
}
