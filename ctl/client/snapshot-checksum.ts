/**
 * The SHA-256 trailer of a snapshot stream: etcd appends the 32-byte digest of every preceding
 * byte, and the image before it is a whole number of 512-byte pages. `push` every chunk in
 * order; `verify` at the end gives the error text etcdctl would print, or undefined.
 * Shared by `kvstorectl snapshot save` and the operator's pre-upgrade snapshot.
 */
import { createHash, type Hash } from 'node:crypto';

const SHA_LEN = 32;

export class SnapshotChecksum {
  private readonly hash: Hash = createHash('sha256');
  private tail: Buffer = Buffer.alloc(0);
  private total = 0;

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const joined = Buffer.concat([this.tail, chunk]);
    const cut = Math.max(0, joined.length - SHA_LEN);
    this.hash.update(joined.subarray(0, cut));
    this.tail = joined.subarray(cut);
  }

  get size(): number {
    return this.total;
  }

  /** The trailer (the digest the stream carries), hex; meaningful once `verify()` passed. */
  get trailerHex(): string {
    return this.tail.toString('hex');
  }

  verify(): string | undefined {
    if (this.total % 512 !== SHA_LEN) return `sha256 checksum not found [bytes: ${this.total}]`;
    const digest = this.hash.digest();
    if (!digest.equals(this.tail)) return `sha256 checksum mismatch [bytes: ${this.total}]`;
    return undefined;
  }
}
