/**
 * The index checkpoint's file (mvcc/index-checkpoint.ts; `DataDirLayout.indexCheckpointPath`).
 *
 * Written when the member stops cleanly, after its store settled: into `<path>.part`, then
 * renamed into place. Not fsynced: nothing acknowledged depends on it, and a file that a power
 * loss left cut short or empty fails its SHA-256 check, so the start scans instead. Taken at
 * the next start: read, then removed (and the removal made durable) before the backend is
 * written to again, so a checkpoint is used at most once and never describes a backend that
 * changed after it. A member killed without a clean stop leaves none, and its next start scans.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDir } from '../storage/sync-dir.js';

/** Writes `bytes` as the checkpoint at `path` (whole under that name, or not there). */
export async function writeIndexCheckpoint(path: string, bytes: Buffer): Promise<void> {
  const part = `${path}.part`;
  await writeFile(part, bytes);
  await rename(part, path);
}

/**
 * The checkpoint at `path`, removed from the disk with the removal made durable (undefined
 * when there is none); a leftover `.part` is removed too (it is never read, so that removal
 * need not be durable).
 */
export async function takeIndexCheckpoint(path: string): Promise<Buffer | undefined> {
  let bytes: Buffer | undefined;
  try {
    bytes = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  await rm(`${path}.part`, { force: true });
  if (bytes === undefined) return undefined;
  await rm(path, { force: true });
  await syncDir(dirname(path));
  return bytes;
}
