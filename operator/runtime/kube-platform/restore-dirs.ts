/**
 * Which files a cluster of a namespace may be restored from on Kubernetes — the restore check
 * (`kubeRestoreInspector`) and the `/restore` route (`serveRestore`) apply the same rule:
 *
 *   <snapshot dir>/<namespace>/…          snapshots put there (restoreFrom.path);
 *   <backup dir>/<namespace>/…            directory backups of the namespace's clusters;
 *   <backup dir>/.staging/<namespace>/…   S3 backups downloaded for a restore, S3 uploads staged;
 *
 * never a file of the backup volume outside those two (the backup dir defaults to
 * `<snapshot dir>/backups`, which a namespace called `backups` would otherwise reach) nor of the
 * rehearsal scratch (`<snapshot dir>/.rehearsals`). `mayRestoreFrom` is the lexical rule (pure);
 * `containedFile` applies it to the path as written and again to the real paths (symlinks
 * resolved), so neither `..` nor a symlink leads out.
 */
import { realpath } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { portFail, portOk, type PortResult } from '../../controller/ports.js';

export interface RestoreDirs {
  /** `--snapshot-dir`. */
  readonly snapshotDir: string;
  /** `--backup-dir` (default `<snapshot-dir>/backups`). */
  readonly backupDir: string;
}

/** Whether `file` lies strictly inside `dir` (both resolved lexically). */
export function inside(dir: string, file: string): boolean {
  return resolve(file).startsWith(resolve(dir) + sep);
}

interface Roots {
  readonly allowed: readonly string[];
  readonly excluded: readonly string[];
}

/** The directories of `namespace`, and those never served. */
export function restoreRoots(dirs: RestoreDirs, namespace: string): Roots {
  return {
    allowed: [join(dirs.snapshotDir, namespace), join(dirs.backupDir, namespace), join(dirs.backupDir, '.staging', namespace)],
    excluded: [dirs.backupDir, join(dirs.snapshotDir, '.rehearsals')],
  };
}

function allowedBy(r: Roots, file: string): boolean {
  // An excluded directory blocks its files unless the allowing directory lies inside it (backup dir/<namespace>).
  return r.allowed.some((d) => inside(d, file) && r.excluded.every((x) => !inside(x, file) || inside(x, d)));
}

/** The lexical rule: may a cluster of `namespace` be restored from `file`? */
export function mayRestoreFrom(dirs: RestoreDirs, namespace: string, file: string): boolean {
  return allowedBy(restoreRoots(dirs, namespace), file);
}

const real = (p: string): Promise<string> => realpath(p).catch(() => resolve(p));

/**
 * `file` (absolute) when the rule allows it both as written and with symlinks resolved; a file
 * that does not exist passes on the lexical rule (the check then reports it missing).
 */
export async function containedFile(dirs: RestoreDirs, namespace: string, file: string): Promise<PortResult<string>> {
  const roots = restoreRoots(dirs, namespace);
  const where = `this namespace's snapshot or backup directories (${roots.allowed.join(', ')})`;
  if (!allowedBy(roots, file)) return portFail(`${file} is not in ${where}`);
  let target: string;
  try {
    target = await realpath(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return portOk(resolve(file));
    return portFail(`${file}: ${(err as Error).message}`);
  }
  const realRoots = { allowed: await Promise.all(roots.allowed.map(real)), excluded: await Promise.all(roots.excluded.map(real)) };
  return allowedBy(realRoots, target) ? portOk(resolve(file)) : portFail(`${file} leads to ${target}, outside ${where}`);
}
