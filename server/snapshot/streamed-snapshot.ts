/**
 * A snapshot image sent while it is built: the bbolt file of a pinned backend view, laid out
 * before its data is read (bbolt/planned-bolt.ts) and produced page after page as its readers
 * take the bytes, so the LevelDB scan of the `key` bucket overlaps the send and nothing is
 * staged on disk.
 *
 * What the layout needs is the size of every record of the `key` bucket in revision order,
 * known before the scan: the MVCC store's record ledger, frozen in the same io-queue task that
 * pins the view (`MvccStore.pinSnapshot`). The other buckets are small and read whole first. The meta
 * pages go out first; then the producer (the bbolt writer running into a sink) hands over
 * ≈ 1 MiB of pages at a time and waits until `readInto` has copied them (two buffers: one
 * being filled while the other is read, so memory stays bounded whatever the size). A record
 * whose size differs from the ledger's ends the image with an error before its checksum is
 * given; so does a producer failure. `close()` before the end stops the producer and releases
 * the view.
 *
 * Two images come out of it: `etcdctl snapshot save`'s, which leaves kvstore's private keys
 * out of the `cluster` bucket (`PRIVATE_CLUSTER_KEYS`: the v2 store, not v3 data), and the
 * leader's state image for a follower (`keepPrivateKeys`: the follower needs the v2 store).
 *
 * Log lines are etcd's: "sending database snapshot to client" when the layout is known,
 * "sending database sha256 checksum to client" at `digest()`, "successfully sent database
 * snapshot to client" at `sent()`.
 */
import type { BoltEntryBatch } from './bbolt/index.js';
import { planBolt, storedInline, writePlannedBolt, type BoltPlan, type PlannedBucket } from './bbolt/planned-bolt.js';
import type { ElementSizes } from './bbolt/tree-layout.js';
import type { PinnedSnapshot } from '../mvcc/types.js';
import type { RecordSizes } from '../mvcc/record-ledger.js';
import { Bucket, type ReadView } from '../storage/backend.js';
import type { ImageHash } from './image-hash.js';
import { OffThreadSha256 } from './off-thread-sha256.js';
import { humanBytes, PRIVATE_CLUSTER_KEYS, type SnapshotImage, type SnapshotLog, type SnapshotStreamOptions } from './stream.js';

export interface StreamedSnapshotOptions extends SnapshotStreamOptions {
  /**
   * Keep kvstore's private keys of the `cluster` bucket (the v2 store) in the image: true for
   * the leader's state image, false (the default) for a user's snapshot.
   */
  readonly keepPrivateKeys?: boolean;
  /** The hash of the bytes (default: a worker thread's, `OffThreadSha256`). */
  readonly hash?: () => ImageHash;
}

/** Revision keys: 8 bytes main, '_', 8 bytes sub, and a tombstone's 't'. */
const REVISION_KEY = 17;
const BUCKETS = Object.values(Bucket);

function elementSizes(records: RecordSizes): ElementSizes {
  const { tombstone, valueLength } = records;
  return {
    length: records.length,
    keyLength: (i) => REVISION_KEY + tombstone[i]!,
    valueLength: (i) => valueLength[i]!,
  };
}

async function entriesOf(view: ReadView, bucket: Bucket, keepPrivateKeys: boolean): Promise<(readonly [Buffer, Buffer])[]> {
  const out: (readonly [Buffer, Buffer])[] = [];
  const skipPrivate = bucket === Bucket.Cluster && !keepPrivateKeys;
  for await (const e of view.iterate(bucket)) {
    if (skipPrivate && PRIVATE_CLUSTER_KEYS.has(e[0].toString('latin1'))) continue;
    out.push(e);
  }
  return out;
}

/** Every bucket of `pinned`, names ascending bytewise: the `key` bucket by sizes (unless small), the others read whole. */
async function plannedBuckets(pinned: PinnedSnapshot, pageSize: number, keepPrivateKeys: boolean): Promise<PlannedBucket[]> {
  const names = [...BUCKETS].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const sizes = elementSizes(pinned.records);
  const out: PlannedBucket[] = [];
  for (const name of names) {
    if (name === Bucket.Key && !storedInline(sizes, pageSize)) {
      out.push({ name, sizes, batches: lazyBatches(pinned.view, name) });
    } else {
      out.push({ name, entries: await entriesOf(pinned.view, name, keepPrivateKeys) });
    }
  }
  return out;
}

/** `view.batches(bucket)`, started only when first read (the plan never reads it). */
async function* lazyBatches(view: ReadView, bucket: Bucket): AsyncGenerator<BoltEntryBatch> {
  yield* view.batches(bucket);
}

/** One hand-off from the producer: bytes `at … end` of `buf`, and what to call once they are all read. */
interface Piece {
  readonly buf: Buffer;
  at: number;
  readonly end: number;
  readonly taken: () => void;
}

const STOPPED = new Error('snapshot: the image was closed before it was read');

export class StreamedSnapshot implements SnapshotImage {
  /** Hashes the bytes in file order as the producer hands them over (off the main thread). */
  readonly #hash: ImageHash;
  #digest: Buffer | undefined;
  readonly #pieces: Piece[] = [];
  #position = 0;
  #closed = false;
  #failure: unknown;
  #wake: (() => void) | undefined;
  readonly #produced: Promise<void>;
  readonly size: number;

  private constructor(
    plan: BoltPlan,
    buckets: readonly PlannedBucket[],
    view: ReadView,
    private readonly log: SnapshotLog | undefined,
    private readonly now: () => number,
    private readonly started: number,
    hash: ImageHash,
  ) {
    this.#hash = hash;
    this.size = plan.size;
    this.#pieces.push({ buf: plan.metas, at: 0, end: plan.metas.length, taken: () => undefined });
    this.#hash.update(plan.metas);
    this.#produced = writePlannedBolt(plan, buckets, (buf, bytes) => this.#offer(buf, bytes))
      .catch((e: unknown) => {
        this.#failure ??= e;
        throw e;
      })
      .finally(() => {
        this.#signal();
        return view.close();
      });
    this.#produced.catch(() => undefined);
    log?.info({ 'total-bytes': this.size, size: humanBytes(this.size) }, 'sending database snapshot to client');
  }

  /**
   * Pins a view (`pin`), reads the small buckets, lays the file out and starts producing it.
   * When it rejects after the pin, the view is released; otherwise the image owns it.
   */
  static async start(pin: () => Promise<PinnedSnapshot>, options: StreamedSnapshotOptions = {}): Promise<StreamedSnapshot> {
    const now = options.now ?? (() => performance.now());
    const started = now();
    const pinned = await pin();
    try {
      const buckets = await plannedBuckets(pinned, 4096, options.keepPrivateKeys ?? false);
      const plan = await planBolt(buckets);
      const hash = options.hash?.() ?? new OffThreadSha256();
      return new StreamedSnapshot(plan, buckets, pinned.view, options.log, now, started, hash);
    } catch (e) {
      await pinned.view.close();
      throw e;
    }
  }

  get remaining(): number {
    return this.size - this.#position;
  }

  async readInto(parts: readonly Buffer[]): Promise<void> {
    let want = 0;
    for (const part of parts) want += part.length;
    if (want > this.remaining) throw new Error(`snapshot read of ${want} bytes past the end of the ${this.size}-byte image`);
    for (const part of parts) {
      let filled = 0;
      while (filled < part.length) {
        const piece = await this.#nextPiece();
        const n = Math.min(part.length - filled, piece.end - piece.at);
        piece.buf.copy(part, filled, piece.at, piece.at + n);
        piece.at += n;
        filled += n;
        if (piece.at === piece.end) {
          this.#pieces.shift();
          piece.taken();
        }
      }
    }
    this.#position += want;
    // The checksum is only ever given for an image whose producer ended as planned.
    if (this.remaining === 0) {
      await this.#produced;
      this.#digest = await this.#hash.digest();
    }
  }

  digest(): Buffer {
    if (this.remaining !== 0) throw new Error(`snapshot digest asked with ${this.remaining} bytes unread`);
    if (this.#digest === undefined) throw new Error('snapshot digest asked before the image was produced');
    this.log?.info({ 'total-bytes': this.size, 'checksum-size': 32 }, 'sending database sha256 checksum to client');
    return this.#digest;
  }

  sent(): void {
    this.log?.info(
      { 'total-bytes': this.size, size: humanBytes(this.size), took: `${((this.now() - this.started) / 1000).toFixed(3)}s` },
      'successfully sent database snapshot to client',
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#failure ??= STOPPED;
    if (this.#digest === undefined) this.#hash.abort();
    for (const piece of this.#pieces.splice(0)) piece.taken();
    this.#signal();
    await this.#produced.catch(() => undefined);
  }

  /** The sink the producer writes into: resolves once every byte handed over was read (the buffer is reused then). */
  #offer(buf: Buffer, bytes: number): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    this.#hash.update(buf.subarray(0, bytes));
    return new Promise<void>((taken) => {
      this.#pieces.push({ buf, at: 0, end: bytes, taken });
      this.#signal();
    }).then(() => {
      if (this.#failure !== undefined) throw this.#failure;
    });
  }

  async #nextPiece(): Promise<Piece> {
    for (;;) {
      const piece = this.#pieces[0];
      if (piece !== undefined) return piece;
      if (this.#failure !== undefined) throw this.#failure;
      await new Promise<void>((wake) => (this.#wake = wake));
    }
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
