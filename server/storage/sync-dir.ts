/**
 * fsync of a directory: what makes a file created, renamed or deleted in it durable (the
 * WAL's segments, a received state image, a restored data dir, a saved snapshot file).
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** fsyncs directory `dir` so a created, renamed or deleted entry in it is durable. */
export async function syncDir(dir: string): Promise<void> {
  const fh = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
