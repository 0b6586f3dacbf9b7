/** Writing a bbolt file (stub until the writer lands). */
import type { BoltBucketSource } from './types.js';

/**
 * Writes a bbolt database to `path` holding `buckets` (names ascending bytewise, each with
 * ascending entries). The file size is a multiple of the page size.
 */
export function writeBolt(path: string, buckets: AsyncIterable<BoltBucketSource> | Iterable<BoltBucketSource>): Promise<{ size: number }> {
  void buckets;
  return Promise.reject(new Error(`bbolt writer not implemented yet (${path})`));
}
