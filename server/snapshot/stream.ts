/**
 * The Maintenance.Snapshot stream: a consistent point-in-time image of the backend in etcd's
 * snapshot layout — a bbolt database (server/snapshot/bbolt/FORMAT.md) holding every backend
 * bucket with its etcd encodings — sent in 32 KiB chunks with `remaining_bytes` counting down,
 * then one message whose blob is the SHA-256 of every byte sent before it. The image is a
 * whole number of 4096-byte pages, so clients find total size mod 512 == 32.
 *
 * Writes go on while it streams: a pinned view is written to a temporary file
 * (`tmp-<random>.snapshot.db` in `tmpDir`) in one pass, the view is released, and the file is
 * sent from disk — never held whole in memory — then removed (also when the client goes away;
 * leftovers of a crash are removed by `removeSnapshotTemps` at start). Staging on disk is
 * deliberate: the meta pages at the front of the file name the root and the page count, known
 * only once every page is laid out, so a stream without a file needs two passes over the view;
 * the LevelDB scan is most of the cost (README.md), so two passes cost nearly twice one.
 * The `key` bucket and the other big ones are read with `view.batches` (no object per entry).
 * `StagedSnapshot` is the staged file read back in order and hashed; `streamSnapshot` makes
 * reply messages of it (grpc-js, gateway; serialized by hand in api/grpc/snapshot-reply.ts),
 * the gRPC stream on HTTP/2 frames it itself (api/grpc/snapshot-frames.ts).
 *
 * `imagePieces` is the interim KVSNAP01 image (server/snapshot/FORMAT.md) still used by the
 * leader-to-follower state image (server/bootstrap/snapshot-exchange.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { open, readdir, rm, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { Bucket, type Backend, type ReadView } from '../storage/backend.js';
import { writeBolt, type BoltBucketSource } from './bbolt/index.js';

/** Blob bytes per reply message (etcd's snapshot send buffer). */
export const SNAPSHOT_CHUNK = 32 * 1024;
/** Bytes read from the image file at a time. */
const READ = 32 * SNAPSHOT_CHUNK;
const MAGIC = Buffer.from('KVSNAP01', 'latin1');
const BUCKETS = Object.values(Bucket);
const TEMP_NAME = /^tmp-[0-9a-f]+\.snapshot\.db$/;

/** Bytes of a KVSNAP01 image gathered into one piece. */
const PIECE = 1024 * 1024;
const NO_VALUE = Buffer.alloc(0);

/**
 * The interim KVSNAP01 image of `view` (unpadded; see FORMAT.md) in pieces of about 1 MiB
 * (a record bigger than that gets a piece of its own size), read with `view.batches`. Every
 * piece is a new buffer (consumers may keep them).
 */
export async function* imagePieces(view: ReadView): AsyncGenerator<Buffer> {
  let piece = Buffer.allocUnsafe(PIECE);
  MAGIC.copy(piece, 0);
  let at = MAGIC.length;
  for (const bucket of BUCKETS) {
    const name = Buffer.from(bucket, 'latin1');
    for await (const { entries, keyStart } of view.batches(bucket)) {
      for (const [key, v] of entries) {
        const value = v ?? NO_VALUE;
        const keyLen = key.length - keyStart;
        const bytes = 1 + name.length + 4 + keyLen + 4 + value.length;
        if (at + bytes > piece.length) {
          if (at > 0) yield piece.subarray(0, at);
          piece = Buffer.allocUnsafe(Math.max(PIECE, bytes));
          at = 0;
        }
        piece[at++] = name.length;
        at += name.copy(piece, at);
        piece.writeUInt32BE(keyLen, at);
        at += 4;
        at += key.copy(piece, at, keyStart);
        piece.writeUInt32BE(value.length, at);
        at += 4;
        piece.set(value, at);
        at += value.length;
      }
    }
  }
  if (at === piece.length) {
    yield piece;
    yield Buffer.from([0]);
    return;
  }
  piece[at++] = 0;
  yield piece.subarray(0, at);
}

/** Keys of kvstore's own in the `cluster` bucket that a snapshot leaves out (it holds v3 data only). */
const PRIVATE_CLUSTER_KEYS: ReadonlySet<string> = new Set(['v2store']);

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

/** Removes temporary snapshot files left in `dir` by a process that stopped mid-stream. */
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
  /** Where the temporary image is written (the member's `<data-dir>/member/snap`); default the OS temp dir. */
  readonly tmpDir?: string;
  readonly log?: SnapshotLog;
  /** Monotonic milliseconds, for the `took` of the final log line. */
  readonly now?: () => number;
}

function humanBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : Math.round(v)} ${units[u]}`;
}

/** A staged snapshot image as its senders use it (StagedSnapshot; tests give their own). */
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

/**
 * A snapshot image written to its temporary file, read back in order. `readInto` fills the
 * given parts with the next bytes of the image (one positioned `readv`; every part whole, the
 * last one of the image may end it) and hashes them; `digest()` is the SHA-256 of every byte
 * read, once all were. `close()` closes and removes the file (idempotent). The log lines are
 * etcd's: "sending database snapshot to client" when staged, "sending database sha256
 * checksum to client" at `digest()`, "successfully sent database snapshot to client" at `sent()`.
 */
export class StagedSnapshot implements SnapshotImage {
  readonly #hash = createHash('sha256');
  #position = 0;
  #closed = false;

  private constructor(
    readonly size: number,
    private readonly path: string,
    private readonly fh: FileHandle,
    private readonly log: SnapshotLog | undefined,
    private readonly now: () => number,
    private readonly started: number,
  ) {
    log?.info({ 'total-bytes': size, size: humanBytes(size) }, 'sending database snapshot to client');
  }

  /** Writes the image of `backend` (after `flush`) to a new temporary file and opens it for reading. */
  static async stage(backend: Backend, flush: () => Promise<void>, options: SnapshotStreamOptions = {}): Promise<StagedSnapshot> {
    const now = options.now ?? (() => performance.now());
    const started = now();
    const path = join(options.tmpDir ?? tmpdir(), `tmp-${randomBytes(8).toString('hex')}.snapshot.db`);
    try {
      const size = await writeSnapshotFile(backend, flush, path);
      const fh = await open(path, 'r');
      return new StagedSnapshot(size, path, fh, options.log, now, started);
    } catch (e) {
      await rm(path, { force: true });
      throw e;
    }
  }

  /** Bytes of the image not read yet. */
  get remaining(): number {
    return this.size - this.#position;
  }

  /** Reads the next bytes of the image into `parts` (their lengths summing to at most `remaining`) and hashes them. */
  async readInto(parts: readonly Buffer[]): Promise<void> {
    let want = 0;
    for (const part of parts) want += part.length;
    if (want > this.remaining) throw new Error(`snapshot read of ${want} bytes past the end of the ${this.size}-byte image`);
    let done = 0;
    while (done < want) {
      const { bytesRead } = await this.fh.readv(unfilled(parts, done), this.#position + done);
      if (bytesRead === 0) throw new Error(`snapshot file ${this.path} shrank while being sent`);
      done += bytesRead;
    }
    for (const part of parts) this.#hash.update(part);
    this.#position += want;
  }

  /** The SHA-256 of the whole image (every byte read). */
  digest(): Buffer {
    if (this.remaining !== 0) throw new Error(`snapshot digest asked with ${this.remaining} bytes unread`);
    this.log?.info({ 'total-bytes': this.size, 'checksum-size': 32 }, 'sending database sha256 checksum to client');
    return this.#hash.digest();
  }

  /** Logs the end of a sent snapshot. */
  sent(): void {
    this.log?.info(
      { 'total-bytes': this.size, size: humanBytes(this.size), took: `${((this.now() - this.started) / 1000).toFixed(3)}s` },
      'successfully sent database snapshot to client',
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.fh.close();
    } finally {
      await rm(this.path, { force: true });
    }
  }
}

/** The parts of `parts` after the first `skip` bytes (a partial read resumes there). */
function unfilled(parts: readonly Buffer[], skip: number): Buffer[] {
  if (skip === 0) return parts as Buffer[];
  const out: Buffer[] = [];
  let left = skip;
  for (const part of parts) {
    if (left >= part.length) {
      left -= part.length;
      continue;
    }
    out.push(left > 0 ? part.subarray(left) : part);
    left = 0;
  }
  return out;
}

/** The Snapshot stream as reply messages: the staged image in SNAPSHOT_CHUNK-sized blobs, then the checksum. */
export async function* streamSnapshot(
  backend: Backend,
  flush: () => Promise<void>,
  options: SnapshotStreamOptions = {},
): AsyncGenerator<pb.SnapshotResponse> {
  const staged = await StagedSnapshot.stage(backend, flush, options);
  try {
    while (staged.remaining > 0) {
      // One read per READ bytes, sent as CHUNK-sized messages (views into the block).
      const block = Buffer.allocUnsafe(Math.min(READ, staged.remaining));
      await staged.readInto([block]);
      let remaining = staged.remaining + block.length;
      for (let off = 0; off < block.length; off += SNAPSHOT_CHUNK) {
        const blob = block.subarray(off, Math.min(off + SNAPSHOT_CHUNK, block.length));
        remaining -= blob.length;
        yield { header: undefined, remainingBytes: BigInt(remaining), blob };
      }
    }
    yield { header: undefined, remainingBytes: 0n, blob: staged.digest() };
    staged.sent();
  } finally {
    await staged.close();
  }
}
