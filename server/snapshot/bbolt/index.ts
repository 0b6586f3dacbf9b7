/**
 * The bbolt database format as etcd keeps its backend (and its snapshot files) in it:
 * a reader that pages through a file, and a writer that builds one from ascending buckets.
 * Layout: FORMAT.md beside this file.
 */
export type { BoltReader, BoltBucketSource, BoltEntryBatch } from './types.js';
export { openBolt, openBoltBytes } from './reader.js';
export { writeBolt } from './writer.js';
