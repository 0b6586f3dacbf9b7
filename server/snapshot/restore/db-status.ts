/**
 * What `snapshot status` reports about a snapshot file, computed as etcdctl 3.4 does:
 * - hash: CRC-32C over, for each top-level bucket in name order, the bucket name, then each
 *   entry's key and value in key order;
 * - revision: the main revision of the last key of the `key` bucket (the largest, keys sort by
 *   revision); 0 without that bucket;
 * - totalKey: entries of every bucket;
 * - totalSize: the database size as bbolt counts it (pages in use × page size; the SHA-256
 *   trailer of a snapshot file is not part of it), given by the caller.
 * No I/O of its own: it reads through the bucket reader it is given.
 */
import { Crc32c } from '../../storage/crc32c.js';

/** The part of the bbolt reader status needs. */
export interface BucketSource {
  bucketNames(): readonly string[];
  entries(bucket: string): AsyncIterable<readonly [Buffer, Buffer]>;
}

export interface DbStatus {
  /** CRC-32C, unsigned 32-bit. */
  readonly hash: number;
  readonly revision: bigint;
  readonly totalKey: number;
  readonly totalSize: number;
}

/** Called after each entry with the key and value bytes read so far (for a progress bar). */
export type ReadProgress = (bytesRead: number) => void;

export async function dbStatus(db: BucketSource, totalSize: number, progress?: ReadProgress): Promise<DbStatus> {
  const h = new Crc32c();
  let revision = 0n;
  let totalKey = 0;
  let read = 0;
  for (const name of db.bucketNames()) {
    h.update(Buffer.from(name, 'latin1'));
    const isKey = name === 'key';
    for await (const [k, v] of db.entries(name)) {
      h.update(k);
      h.update(v);
      if (isKey && k.length >= 8) revision = k.readBigInt64BE(0);
      totalKey++;
      read += k.length + v.length;
      progress?.(read);
    }
  }
  return { hash: h.digest(), revision, totalKey, totalSize };
}
