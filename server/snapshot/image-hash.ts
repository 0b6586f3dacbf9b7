/**
 * The SHA-256 a snapshot image ends with, as a port: the image hands over its bytes in file
 * order (`update` copies or hashes them before it returns, so the caller may reuse its buffer)
 * and asks for the digest once the last byte was handed over.
 *
 * Two implementations: `OffThreadSha256` (off-thread-sha256.ts: the image is built on the main
 * thread, which has better things to do) and `InlineSha256` here (same thread, settled in the
 * call: an image built on its own thread (image-thread.ts), where the main thread only sends,
 * and the deterministic simulation, whose steps must not wait on another thread).
 */
import { createHash, type Hash } from 'node:crypto';

export interface ImageHash {
  /** Hashes `bytes` next. */
  update(bytes: Uint8Array): void;
  /** The SHA-256 of every byte given to `update`. */
  digest(): Promise<Buffer>;
  /** Drops the hash (an image closed early); idempotent. */
  abort(): void;
}

export class InlineSha256 implements ImageHash {
  readonly #hash: Hash = createHash('sha256');

  update(bytes: Uint8Array): void {
    this.#hash.update(bytes);
  }

  digest(): Promise<Buffer> {
    return Promise.resolve(this.#hash.digest());
  }

  abort(): void {}
}
