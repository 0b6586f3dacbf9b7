/** Reading a bbolt file page by page (stub until the reader lands). */
import type { BoltReader } from './types.js';

/** Opens the bbolt database at `path`; a trailing 32-byte SHA-256 after the last page is ignored. */
export function openBolt(path: string): Promise<BoltReader> {
  return Promise.reject(new Error(`bbolt reader not implemented yet (${path})`));
}
