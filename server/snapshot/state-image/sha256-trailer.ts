/**
 * The SHA-256 trailer of a state image (FORMAT.md): what arrived must end with the SHA-256 of
 * every byte before its last 32. `TrailerCheck` follows a body of any chunking without holding
 * it: it hashes all but the last 32 bytes seen so far and keeps those (they may be the
 * trailer). A body cut short or altered anywhere fails the check (its last 32 bytes are then
 * not the hash of the rest), as does one shorter than a trailer.
 *
 * The same rule as `snapshot restore`'s check of a saved file (restore/hash-check.ts), applied
 * while the bytes arrive instead of to a file read again afterwards.
 */
import { createHash } from 'node:crypto';

export const TRAILER_BYTES = 32;

export type TrailerOutcome =
  | { readonly ok: true; /** Bytes before the trailer: the bbolt file. */ readonly imageBytes: number }
  | { readonly ok: false; readonly message: string };

export class TrailerCheck {
  readonly #hash = createHash('sha256');
  #tail: Buffer = Buffer.alloc(0);
  #bytes = 0;

  /** Follows the next bytes of the body (not kept: the caller may reuse `chunk`). */
  update(chunk: Buffer): void {
    this.#bytes += chunk.length;
    if (chunk.length >= TRAILER_BYTES) {
      this.#hash.update(this.#tail);
      this.#hash.update(chunk.subarray(0, chunk.length - TRAILER_BYTES));
      this.#tail = Buffer.from(chunk.subarray(chunk.length - TRAILER_BYTES));
      return;
    }
    const joined = Buffer.concat([this.#tail, chunk]);
    const cut = Math.max(0, joined.length - TRAILER_BYTES);
    this.#hash.update(joined.subarray(0, cut));
    this.#tail = joined.subarray(cut);
  }

  /** The outcome once the body ended (call once). */
  finish(): TrailerOutcome {
    if (this.#bytes < TRAILER_BYTES) {
      return { ok: false, message: `state image of ${this.#bytes} bytes is too short to hold its ${TRAILER_BYTES}-byte SHA-256 trailer` };
    }
    const got = this.#hash.digest();
    if (!got.equals(this.#tail)) {
      return {
        ok: false,
        message:
          `state image of ${this.#bytes} bytes fails its SHA-256 check (corrupted or cut short): ` +
          `the trailer says ${this.#tail.toString('hex')}, the bytes before it hash to ${got.toString('hex')}`,
      };
    }
    return { ok: true, imageBytes: this.#bytes - TRAILER_BYTES };
  }
}

/** The trailer check of a whole body held in memory. */
export function checkTrailer(body: Buffer): TrailerOutcome {
  const check = new TrailerCheck();
  check.update(body);
  return check.finish();
}
