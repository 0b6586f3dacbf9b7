/**
 * The SHA-256 a snapshot image ends with, as the image computes it: in file order, piece by
 * piece. Where it runs depends on who produces the pages: when this thread builds them, the
 * hash goes to a worker (off-thread-sha256.ts); when a worker builds them
 * (image-thread.ts), this thread only sends, and hashes here (no copy to hand over).
 */
import { createHash } from 'node:crypto';

export interface ImageHash {
  /** Hashes `bytes` next (the caller may reuse its buffer afterwards). */
  update(bytes: Uint8Array): void;
  /** The SHA-256 of every byte given to `update`. */
  digest(): Promise<Buffer>;
  /** Gives up (an image closed early). */
  abort(): void;
}

/** An ImageHash computed on this thread. */
export function inThreadSha256(): ImageHash {
  const hash = createHash('sha256');
  return {
    update: (bytes) => void hash.update(bytes),
    digest: () => Promise.resolve(hash.digest()),
    abort: () => undefined,
  };
}
