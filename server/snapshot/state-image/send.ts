/**
 * Leader side of the state image (FORMAT.md): the bbolt file of the member's applied state,
 * laid out from the record ledger and built while it is sent, as `etcdctl snapshot save`
 * streams it (streamed-snapshot.ts), but with the v2 store kept; cut into pieces for the peer
 * transport and followed by the 32-byte SHA-256 of every byte before it.
 *
 * Ownership: `startStateImage` hands back an image that holds a pinned backend view until it
 * is closed. `stateImagePieces` closes it when its pieces end, fail or are abandoned, but a
 * generator that is never iterated never runs its `finally`: the caller closes the image too
 * (`close()` is idempotent). A producer that fails (e.g. a `key` record whose size differs from
 * the ledger's) makes the pieces throw before the SHA-256 is given, so no receiver ever holds
 * a complete-looking wrong file.
 */
import { readMeta } from '../../mvcc/meta.js';
import type { PinnedSnapshot } from '../../mvcc/types.js';
import type { SnapshotImage } from '../stream.js';
import { StreamedSnapshot, type StreamedSnapshotOptions } from '../streamed-snapshot.js';

/** Bytes of a piece handed to the transport (the last piece of the file is shorter). */
export const PIECE_BYTES = 1024 * 1024;

export interface StateImage {
  readonly image: SnapshotImage;
  /** The pinned view's `consistent_index`: the Raft index whose state the image holds. */
  readonly consistentIndex: bigint;
}

/**
 * Pins a view (`pin`: the member flushed first, then `MvccStore.pinSnapshot`, so the view and
 * the record ledger agree), reads its consistent index and starts the image of it, private
 * keys kept. The view is released when this rejects.
 */
export async function startStateImage(
  pin: () => Promise<PinnedSnapshot>,
  options: Omit<StreamedSnapshotOptions, 'keepPrivateKeys'> = {},
): Promise<StateImage> {
  let consistentIndex = 0n;
  const image = await StreamedSnapshot.start(async () => {
    const pinned = await pin();
    try {
      consistentIndex = (await readMeta(pinned.view)).consistentIndex;
    } catch (e) {
      await pinned.view.close();
      throw new Error('state image: cannot read the consistent index of the pinned view', { cause: e });
    }
    return pinned;
  }, { ...options, keepPrivateKeys: true });
  return { image, consistentIndex };
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
