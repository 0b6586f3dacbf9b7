/**
 * The Maintenance.Snapshot stream: a consistent point-in-time image of the backend in etcd's
 * snapshot layout — a bbolt database (server/snapshot/bbolt/FORMAT.md) holding every backend
 * bucket with its etcd encodings — sent in 32 KiB chunks with `remaining_bytes` counting down,
 * then one message whose blob is the SHA-256 of every byte sent before it. The image is a
 * whole number of 4096-byte pages, so clients find total size mod 512 == 32.
 *
 * Writes go on while it streams: the image is of a view pinned when the call starts, built
 * while it is sent and never held whole in memory nor staged on disk (streamed-snapshot.ts:
 * the file is laid out from the record ledger before the scan). `streamSnapshot` makes reply
 * messages of an image (grpc-js, gateway; serialized by hand in api/grpc/snapshot-reply.ts),
 * the gRPC stream on HTTP/2 frames it itself (api/grpc/snapshot-frames.ts). `writeSnapshotFile`
 * writes the same bytes to a file in one pass (benchmarks, tests).
 *
 * The leader-to-follower state image is the same file with the v2 store kept, sent over the
 * peer transport (state-image/, FORMAT.md).
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { Bucket, type Backend, type ReadView } from '../storage/backend.js';
import { writeBolt, type BoltBucketSource } from './bbolt/index.js';

/** Blob bytes per reply message (etcd's snapshot send buffer). */
export const SNAPSHOT_CHUNK = 32 * 1024;
/** Bytes read from the image at a time. */
const READ = 32 * SNAPSHOT_CHUNK;
const BUCKETS = Object.values(Bucket);
const TEMP_NAME = /^tmp-[0-9a-f]+\.snapshot\.db$/;

/**
 * Keys of kvstore's own in the `cluster` bucket that a user's snapshot leaves out (it holds v3
 * data only); the state image a leader sends a follower keeps them.
 */
export const PRIVATE_CLUSTER_KEYS: ReadonlySet<string> = new Set(['v2store']);

async function* withoutPrivateKeys(entries: AsyncIterable<readonly [Buffer, Buffer]>): AsyncGenerator<readonly [Buffer, Buffer]> {
  for await (const e of entries) if (!PRIVATE_CLUSTER_KEYS.has(e[0].toString('latin1'))) yield e;
}

/**
 * Every backend bucket of `view`, names ascending bytewise (as bbolt orders them), without the
 * v2 store's image (SPEC: only v3 data is in the snapshot).
 */
export function backendBuckets(view: ReadView): BoltBucketSource[] {
  return [...BUCKETS]
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((name) => (name === Bucket.Cluster ? { name, entries: withoutPrivateKeys(view.iterate(name)) } : { name, batches: view.batches(name) }));
}

/** Writes the bbolt image of `backend` (after `flush`) to `path`; the pinned view is released before it resolves. */
export async function writeSnapshotFile(backend: Backend, flush: () => Promise<void>, path: string): Promise<number> {
  await flush();
  const view = await backend.snapshot();
  try {
    const { size } = await writeBolt(path, backendBuckets(view), { sync: false });
    return size;
  } finally {
    await view.close();
  }
}

/** Removes temporary snapshot files left in `dir` by a process that stopped mid-stream (images used to be staged on disk). */
export async function removeSnapshotTemps(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw new Error(`cannot list ${dir}`, { cause: e });
  }
  const stale = names.filter((n) => TEMP_NAME.test(n));
  for (const n of stale) await rm(join(dir, n), { force: true });
  return stale.length;
}

/** The subset of the member's logger the stream uses (pino calling form: fields, message). */
export interface SnapshotLog {
  info(fields: Readonly<Record<string, unknown>>, msg: string): void;
}

export interface SnapshotStreamOptions {
  readonly log?: SnapshotLog;
  /** Monotonic milliseconds, for the `took` of the final log line. */
  readonly now?: () => number;
}

/** Sizes as etcd logs them ("69 MB"). */
export function humanBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : Math.round(v)} ${units[u]}`;
}

/** A snapshot image as its senders use it (streamed-snapshot.ts; tests give their own). */
export interface SnapshotImage {
  readonly size: number;
  /** Bytes not read yet. */
  readonly remaining: number;
  /** Reads the next bytes into `parts` (whole parts, at most `remaining` bytes in all) and hashes them. */
  readInto(parts: readonly Buffer[]): Promise<void>;
  /** The SHA-256 of the image, once every byte was read. */
  digest(): Buffer;
  /** Logs the end of a sent snapshot. */
  sent(): void;
  /** Releases the image (idempotent). */
  close(): Promise<void>;
}

/** The Snapshot stream as reply messages: the image in SNAPSHOT_CHUNK-sized blobs, then the checksum. */
export async function* streamSnapshot(start: () => Promise<SnapshotImage>): AsyncGenerator<pb.SnapshotResponse> {
  const image = await start();
  try {
    while (image.remaining > 0) {
      // One read per READ bytes, sent as CHUNK-sized messages (views into the block).
      const block = Buffer.allocUnsafe(Math.min(READ, image.remaining));
      await image.readInto([block]);
      let remaining = image.remaining + block.length;
      for (let off = 0; off < block.length; off += SNAPSHOT_CHUNK) {
        const blob = block.subarray(off, Math.min(off + SNAPSHOT_CHUNK, block.length));
        remaining -= blob.length;
        yield { header: undefined, remainingBytes: BigInt(remaining), blob };
      }
    }
    yield { header: undefined, remainingBytes: 0n, blob: image.digest() };
    image.sent();
  } finally {
    await image.close();
  }
}
