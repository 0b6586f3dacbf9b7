/**
 * The RestoreInspector of local mode: `spec.restoreFrom.path` is a file path, relative to the
 * manifest's directory (absolute paths as they are: local mode serves one user); a `backup` names
 * another local cluster by the manifest beside this one that runs it (`<cluster>.yaml` or
 * `<cluster>.yml` in the same directory), whose written `status.backups` is read.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';
import { backupsOf } from '../../controller/restore/backups.js';
import { FileRestoreInspector, type BackupLookup } from '../../controller/restore/restore-source.js';

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
        const doc = parse(text) as { metadata?: { name?: unknown }; status?: unknown } | null;
        if (doc?.metadata?.name !== name) continue;
        const backups = backupsOf(doc.status);
        return portOk(backups === undefined ? {} : { backups });
      } catch (err) {
        return portFail(`parse ${file}: ${(err as Error).message}`);
      }
    }
    return portOk(undefined);
  };
}

export function localRestoreInspector(manifestFile: string): FileRestoreInspector {
  const dir = dirname(resolve(manifestFile));
  return new FileRestoreInspector({
    resolvePath: (_cluster, path): PortResult<string> => portOk(resolve(dir, path)),
    backups: siblingBackups(manifestFile),
  });
}
