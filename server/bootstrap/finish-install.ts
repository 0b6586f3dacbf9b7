/**
 * At start: finishing the install of a state image that a stop interrupted, and clearing the
 * image files nothing will read.
 *
 * The follower's log records a received snapshot before the image has replaced the backend
 * (snapshot-exchange.ts), and the image's load is restartable (snapshot/state-image/load.ts).
 * So a member whose log holds a snapshot past its backend's consistent index loads the kept
 * `<index>.snap.db` again, after checking its SHA-256 trailer once more (the file has sat on
 * disk across a stop), then rebuilds the MVCC store's view of the backend.
 *
 * An older kvstore kept the image as `<index>.snap.kv` (KVSNAP01), a format this version no
 * longer reads; such a file for the pending snapshot ends the start with an error saying how
 * to go on. (A `.snap.kv` that passes the SHA-256 check is a bbolt image an older version
 * received from a newer leader and could not load: it is loaded.) Other image files (a `.part` of a receive cut short, an image whose install was
 * complete but not yet removed) are removed.
 */
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { MvccStoreImpl } from '../mvcc/store.js';
import { checkSnapshotHash } from '../snapshot/restore/hash-check.js';
import { loadImageFile } from '../snapshot/state-image/load.js';
import type { Backend } from '../storage/backend.js';
import { imagePath, legacyImagePath } from './snapshot-exchange.js';

const IMAGE_FILE = /^[0-9a-f]{16}\.snap\.(db|kv)(\.part)?$/;

export interface PendingInstall {
  readonly snapDir: string;
  readonly backend: Backend;
  readonly store: MvccStoreImpl;
  readonly logger: Logger;
}

/** Loads the kept image of the snapshot at `index` (the log's) into the backend; throws when it cannot. */
export async function finishInterruptedInstall(p: PendingInstall, index: number): Promise<void> {
  const behind = `the log holds a snapshot at index ${index} but the backend is at ${p.store.consistentIndex}`;
  const path = await keptImage(p.snapDir, index, behind);
  const checked = await checkSnapshotHash(path, false);
  if (!checked.ok) {
    throw new Error(`${behind}, and its state image ${path} fails its check (${checked.message}); remove the member from the cluster, empty its data dir and add it again`);
  }
  await loadImageFile(p.backend, path);
  await p.store.reload();
  await rm(path, { force: true });
  p.logger.info({ 'snapshot-index': index.toString() }, 'finished installing a database snapshot interrupted by a stop');
}

/**
 * The file holding the pending image: `<index>.snap.db`, or a `<index>.snap.kv` that passes the
 * SHA-256 check — a bbolt image that an older version received from a newer leader and kept
 * under its own name (it then failed to load it). A `.snap.kv` that fails the check is KVSNAP01.
 */
async function keptImage(snapDir: string, index: number, behind: string): Promise<string> {
  const path = imagePath(snapDir, index);
  if (existsSync(path)) return path;
  const legacy = legacyImagePath(snapDir, index);
  if (!existsSync(legacy)) throw new Error(`${behind} and the state image ${path} is missing`);
  if ((await checkSnapshotHash(legacy, false)).ok) return legacy;
  throw new Error(
    `${behind}, and its state image ${legacy} is in the KVSNAP01 format of an older kvstore, which this version no longer reads. ` +
      'Start this member once with the version that received it (it finishes the install at start), then upgrade; ' +
      'or remove the member from the cluster, empty its data dir and add it again',
  );
}

/** Removes every state image file of `snapDir` but those of the snapshot at `keep`; returns how many. */
export async function removeStaleImages(snapDir: string, keep: number | undefined): Promise<number> {
  const kept = keep === undefined ? [] : [imagePath(snapDir, keep), legacyImagePath(snapDir, keep)];
  let removed = 0;
  for (const name of await readdir(snapDir)) {
    const path = join(snapDir, name);
    if (!IMAGE_FILE.test(name) || kept.includes(path)) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}
