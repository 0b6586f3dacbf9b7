/**
 * `SnapshotStore` on a local directory: spec.upgrade.snapshot.volume resolved against the
 * cluster's directory (layout.ts). Files of a cluster are `<cluster>-*.db`; "oldest" is by
 * modification time.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { KvstoreCluster } from '../../api/types.js';
import { portFail, portOk, type PortResult, type SnapshotStore } from '../../controller/ports.js';
import type { LocalLayout } from './layout.js';

export class SnapshotDir implements SnapshotStore {
  constructor(private readonly layout: LocalLayout) {}

  private dir(cluster: KvstoreCluster): string {
    return this.layout.snapshotDir(cluster.spec.upgrade.snapshot.volume);
  }

  pathOf(cluster: KvstoreCluster, fileName: string): string {
    return join(this.dir(cluster), fileName);
  }

  async prepare(cluster: KvstoreCluster): Promise<PortResult<void>> {
    try {
      await mkdir(this.dir(cluster), { recursive: true });
      return portOk(undefined);
    } catch (err) {
      return portFail(`create ${this.dir(cluster)}: ${(err as Error).message}`);
    }
  }

  async list(cluster: KvstoreCluster): Promise<PortResult<readonly string[]>> {
    const dir = this.dir(cluster);
    try {
      const names = (await readdir(dir)).filter((n) => n.startsWith(`${cluster.metadata.name}-`) && n.endsWith('.db'));
      const withTimes = await Promise.all(names.map(async (n) => ({ path: join(dir, n), mtime: (await stat(join(dir, n))).mtimeMs })));
      return portOk(withTimes.sort((a, b) => a.mtime - b.mtime || a.path.localeCompare(b.path)).map((f) => f.path));
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
      return portFail(`prune ${this.dir(cluster)}: ${(err as Error).message}`);
    }
  }
}
