/**
 * The integrity check of a snapshot file before a restore, as etcdctl 3.4 makes it: a file whose
 * size is 32 more than a multiple of 512 carries a SHA-256 trailer of everything before it, which
 * must match; a file without one is refused unless the check is skipped. Streams the file (never
 * holds it in memory). Error texts are etcdctl's.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { goPathError } from './go-errors.js';

const SHA_LEN = 32;

export interface HashChecked {
  /** Bytes of the database itself (the file without its trailer). */
  readonly dbSize: number;
  readonly hasHash: boolean;
}

export type HashOutcome = { readonly ok: true; readonly value: HashChecked } | { readonly ok: false; readonly message: string };

/** Go's `%v` of a byte slice: `[1 2 3]`. */
const goBytes = (b: Buffer): string => `[${[...b].join(' ')}]`;

export async function checkSnapshotHash(path: string, skipHashCheck: boolean, onBytes?: (done: number, total: number) => void): Promise<HashOutcome> {
  let size: number;
  let trailer: Buffer;
  try {
    const fh = await open(path, 'r');
    try {
      size = (await fh.stat()).size;
      if (size < SHA_LEN) return { ok: false, message: `seek ${path}: invalid argument` };
      trailer = Buffer.alloc(SHA_LEN);
      await fh.read(trailer, 0, SHA_LEN, size - SHA_LEN);
    } finally {
      await fh.close();
    }
  } catch (err) {
    return { ok: false, message: goPathError('open', path, err) };
  }
  const hasHash = size % 512 === SHA_LEN;
  const dbSize = hasHash ? size - SHA_LEN : size;
  if (!hasHash && !skipHashCheck) return { ok: false, message: 'snapshot missing hash but --skip-hash-check=false' };
  if (hasHash && !skipHashCheck) {
    const h = createHash('sha256');
    let done = 0;
    try {
      for await (const chunk of createReadStream(path, { start: 0, end: dbSize - 1, highWaterMark: 1 << 20 })) {
        h.update(chunk as Buffer);
        done += (chunk as Buffer).length;
        onBytes?.(done, dbSize);
      }
    } catch (err) {
      return { ok: false, message: goPathError('read', path, err) };
    }
    const got = h.digest();
    if (!got.equals(trailer)) return { ok: false, message: `expected sha256 ${goBytes(trailer)}, got ${goBytes(got)}` };
  }
  return { ok: true, value: { dbSize, hasHash } };
}
