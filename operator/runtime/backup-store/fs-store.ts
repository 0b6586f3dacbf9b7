/**
 * `BackupStore` on a directory: the snapshot is streamed straight into `<dir>/<name>` (the member
 * admin writes `<name>.part` and renames it once verified), so publishing is already done. Lists
 * the cluster's backups by name (names.ts: `<cluster>-<time>.db`; `.part` files never match),
 * oldest first by the time in the name.
 */
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RetainedBackup } from '../../api/types.js';
import { backupTime } from '../../controller/backup/names.js';
import type { BackupStore } from '../../controller/backup/store-port.js';
import { portFail, portOk, type PortResult, type SnapshotFile } from '../../controller/ports.js';

export class DirectoryBackupStore implements BackupStore {
  constructor(
    /** The directory backups go into. */
    readonly dir: string,
    readonly cluster: string,
  ) {}

  get where(): string {
    return this.dir;
  }

  async localFile(name: string): Promise<PortResult<string>> {
    try {
      await mkdir(this.dir, { recursive: true });
      return portOk(join(this.dir, name));
    } catch (err) {
      return portFail(`create ${this.dir}: ${(err as Error).message}`);
    }
  }

  publish(_name: string, file: SnapshotFile): Promise<PortResult<string>> {
    return Promise.resolve(portOk(file.file));
  }

  async discard(name: string): Promise<void> {
    await rm(join(this.dir, `${name}.part`), { force: true }).catch(() => undefined);
  }

  async list(): Promise<PortResult<readonly RetainedBackup[]>> {
    try {
      const out: RetainedBackup[] = [];
      for (const name of await readdir(this.dir)) {
        const time = backupTime(this.cluster, name);
        if (time === undefined) continue;
        const uri = join(this.dir, name);
        out.push({ name, uri, time, size: (await stat(uri)).size });
      }
      return portOk(out.sort((a, b) => a.time.localeCompare(b.time) || a.name.localeCompare(b.name)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return portOk([]);
      return portFail(`list ${this.dir}: ${(err as Error).message}`);
    }
  }

  async remove(names: readonly string[]): Promise<PortResult<void>> {
    try {
      for (const n of names) if (backupTime(this.cluster, n) !== undefined) await rm(join(this.dir, n), { force: true });
      return portOk(undefined);
    } catch (err) {
      return portFail(`delete backups in ${this.dir}: ${(err as Error).message}`);
    }
  }
}
