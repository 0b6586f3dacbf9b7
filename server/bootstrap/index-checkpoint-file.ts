/**
 * The index checkpoint's file (mvcc/index-checkpoint.ts; `DataDirLayout.indexCheckpointPath`).
 *
 * Written when the member stops cleanly, after its store settled: into `<path>.part`, fsynced,
 * renamed into place, directory fsynced — so a file under the name is always whole. Taken at
 * the next start: read, then removed (and the removal made durable) before the backend is
 * written to again, so a checkpoint is used at most once and never describes a backend that
 * changed after it. A member killed without a clean stop leaves none, and its next start scans.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDir } from '../storage/sync-dir.js';

/** Writes `bytes` durably as the checkpoint at `path`. */
export async function writeIndexCheckpoint(path: string, bytes: Buffer): Promise<void> {
  const part = `${path}.part`;
  const fh = await open(part, 'w');
  try {
    await fh.writeFile(bytes);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(part, path);
  await syncDir(dirname(path));
}

/** The checkpoint at `path`, removed from the disk (undefined when there is none); a leftover `.part` is removed too. */
export async function takeIndexCheckpoint(path: string): Promise<Buffer | undefined> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  await rm(`${path}.part`, { force: true });
  if (bytes !== undefined) await rm(path, { force: true });
  await syncDir(dirname(path));
  return bytes;
}
