/**
 * The RestoreInspector of local mode: `spec.restoreFrom.path` is a file path, relative to the
 * manifest's directory (absolute paths as they are: local mode serves one user); a `backup` names
 * another local cluster by the manifest beside this one that runs it (`<cluster>.yaml` or
 * `<cluster>.yml` in the same directory), whose written `status.backups` and `spec.backup` are
 * read. The picked record's `uri`: an absolute path as it is, a relative one inside that
 * cluster's backup directory (`<cluster>.kvstore/backups`, or its `destination.path`); an
 * `s3://` object is downloaded with that cluster's `destination.s3` (credentials: `<secret>.yaml`
 * beside the manifests) into `<this cluster>.kvstore/backups-staging/restore/<name>`.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import type { BackupSpec } from '../../api/types.js';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import { backupsOf, s3Location } from '../../controller/restore/backups.js';
import { FileRestoreInspector, type BackupLocator, type BackupLookup } from '../../controller/restore/restore-source.js';
import type { PlatformBackupStores } from '../backup-store/backup-stores.js';
import { LocalLayout } from './layout.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function siblingBackups(manifestFile: string): BackupLookup {
  const dir = dirname(resolve(manifestFile));
  return async (_namespace, name) => {
    for (const ext of ['yaml', 'yml']) {
      const file = join(dir, `${name}.${ext}`);
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        return portFail(`read ${file}: ${(err as Error).message}`);
      }
      try {
        const doc = parse(text) as { metadata?: { name?: unknown }; spec?: { backup?: unknown }; status?: unknown } | null;
        if (doc?.metadata?.name !== name) continue;
        // spec.backup as written (the running operator of that cluster validated it); only destination is read.
        const backup = isObject(doc.spec?.backup) && isObject(doc.spec.backup['destination']) ? (doc.spec.backup as unknown as BackupSpec) : undefined;
        const source = { namespace: '', name, ...(backup === undefined ? {} : { backup }) };
        const backups = backupsOf(doc.status);
        return portOk(backups === undefined ? { source } : { source, backups });
      } catch (err) {
        return portFail(`parse ${file}: ${(err as Error).message}`);
      }
    }
    return portOk(undefined);
  };
}

function localBackupLocator(manifestFile: string, stores: PlatformBackupStores | undefined): BackupLocator {
  const dir = dirname(resolve(manifestFile));
  return async (restoring, source, record): Promise<PortResult<string>> => {
    if (s3Location(record.uri) !== undefined) {
      if (stores === undefined) return portFail(`${record.uri}: no backup store to download it with`);
      const file = join(new LocalLayout(manifestFile, restoring.metadata.name).backupStagingDir, 'restore', record.name);
      return stores.fetchS3(source, record.uri, file, record.size);
    }
    if (isAbsolute(record.uri)) return portOk(record.uri);
    const layout = new LocalLayout(join(dir, `${source.name}.yaml`), source.name);
    return portOk(resolve(layout.backupDir(source.backup?.destination.path), record.uri));
  };
}

export function localRestoreInspector(manifestFile: string, stores?: PlatformBackupStores): FileRestoreInspector {
  const dir = dirname(resolve(manifestFile));
  return new FileRestoreInspector({
    resolvePath: (_cluster, path): PortResult<string> => portOk(resolve(dir, path)),
    backups: siblingBackups(manifestFile),
    locate: localBackupLocator(manifestFile, stores),
  });
}
