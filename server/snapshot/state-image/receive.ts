/**
 * Follower side of the state image, on arrival: the body is written to `<path>.part` with its
 * SHA-256 trailer checked on the way (sha256-trailer.ts), fsynced, renamed to `path` and the
 * directory fsynced. So a file at `path` is always a whole image that passed its check, on
 * stable storage before the leader is told it arrived. A body that fails the check (corrupted,
 * cut short by a broken connection), or any I/O error, rejects and leaves no file behind.
 */
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDir } from '../../storage/sync-dir.js';
import { TrailerCheck } from './sha256-trailer.js';

/** Writes `body` to `path` as described above; resolves with the bytes received (trailer included). */
export async function receiveImage(body: AsyncIterable<Buffer>, path: string): Promise<number> {
  const part = `${path}.part`;
  const check = new TrailerCheck();
  let bytes = 0;
  try {
    const fh = await open(part, 'w');
    try {
      for await (const chunk of body) {
        check.update(chunk);
        await fh.write(chunk);
        bytes += chunk.length;
      }
      const outcome = check.finish();
      if (!outcome.ok) throw new Error(`${path}: ${outcome.message}`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(part, path);
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  }
  await syncDir(dirname(path));
  return bytes;
}
