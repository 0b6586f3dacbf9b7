/**
 * Leader side of the state image (FORMAT.md): the bbolt file of the member's applied state,
 * laid out from the record ledger and built while it is sent, as `etcdctl snapshot save`
 * streams it (streamed-snapshot.ts), but with the v2 store kept; cut into pieces for the peer
 * transport and followed by the 32-byte SHA-256 of every byte before it.
 *
 * Ownership: `startStateImage` hands back an image that holds a pinned backend view (and its
 * image thread) until it is closed. `stateImagePieces` closes it when its pieces end, fail or are abandoned, but a
 * generator that is never iterated never runs its `finally`: the caller closes the image too
 * (`close()` is idempotent). A producer that fails (e.g. a `key` record whose size differs from
 * the ledger's) makes the pieces throw before the SHA-256 is given, so no receiver ever holds
 * a complete-looking wrong file.
 */
import type { SnapshotImage } from '../stream.js';
import { startImage, type ImageSource, type StreamedSnapshotOptions } from '../streamed-snapshot.js';

/** Bytes of a piece handed to the transport (the last piece of the file is shorter). */
export const PIECE_BYTES = 1024 * 1024;

export interface StateImage {
  readonly image: SnapshotImage;
  /** The pinned view's `consistent_index`: the Raft index whose state the image holds. */
  readonly consistentIndex: bigint;
}

/**
 * The state image of everything applied to `source` so far (flushed, then pinned with the
 * record ledger), private keys kept, built where `startImage` builds a user's snapshot (on the
 * image thread over LevelDB), with the consistent index of the pinned view.
 */
export async function startStateImage(source: ImageSource, options: Omit<StreamedSnapshotOptions, 'keepPrivateKeys'> = {}): Promise<StateImage> {
  const image = await startImage(source, { ...options, keepPrivateKeys: true });
  return { image, consistentIndex: image.consistentIndex };
}

/**
 * The bytes of `image` in pieces of PIECE_BYTES, then its SHA-256 (32 bytes). Every piece is a
 * new buffer (the transport may keep it). The image is closed once the pieces end or stop.
 */
export async function* stateImagePieces(image: SnapshotImage): AsyncGenerator<Buffer> {
  try {
    while (image.remaining > 0) {
      const piece = Buffer.allocUnsafe(Math.min(PIECE_BYTES, image.remaining));
      await image.readInto([piece]);
      yield piece;
    }
    yield image.digest();
  } finally {
    await image.close();
  }
}
