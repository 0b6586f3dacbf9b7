/**
 * A snapshot image sent while it is built: the bbolt file of a pinned backend view, laid out
 * before its data is read (bbolt/planned-bolt.ts) and produced page after page as its readers
 * take the bytes, so the LevelDB scan of the `key` bucket overlaps the send and nothing is
 * staged on disk.
 *
 * What the layout needs is the size of every record of the `key` bucket in revision order,
 * known before the scan: the MVCC store's record ledger, frozen in the same io-queue task that
 * pins the view (`MvccStore.pinSnapshot`). The other buckets are small and read whole first
 * (image-plan.ts). The meta pages go out first; then the producer (the bbolt writer running
 * into a sink) hands over ≈ 1 MiB of pages at a time and waits until `readInto` has copied
 * them, so memory stays bounded whatever the size. Over LevelDB the producer is the image
 * thread (image-thread.ts: its own view of the shared database, pages through a ring of four
 * slots); over the memory backend it runs on this thread (two page buffers). A record
 * whose size differs from the ledger's ends the image with an error before its checksum is
 * given; so does a producer failure. `close()` before the end stops the producer and releases
 * the view.
 *
 * Two images come out of it: `etcdctl snapshot save`'s, which leaves kvstore's private keys
 * out of the `cluster` bucket (`PRIVATE_CLUSTER_KEYS`: the v2 store, not v3 data), and the
 * leader's state image for a follower (`keepPrivateKeys`: the follower needs the v2 store).
 * Both carry the `consistent_index` of the pinned view: the Raft index whose state they hold.
 *
 * Log lines are etcd's: "sending database snapshot to client" when the layout is known,
 * "sending database sha256 checksum to client" at `digest()`, "successfully sent database
 * snapshot to client" at `sent()`.
 */
import { createHash, type Hash } from 'node:crypto';
import { writePlannedBolt } from './bbolt/planned-bolt.js';
import type { PageSink } from './bbolt/page-out.js';
import type { MvccStore, PinnedSnapshot } from '../mvcc/types.js';
import type { Backend } from '../storage/backend.js';
import { readMeta } from '../mvcc/meta.js';
import { planImage, type KeyRecordSizes } from './image-plan.js';
import { ImageThread } from './image-thread.js';
import { humanBytes, type SnapshotImage, type SnapshotLog, type SnapshotStreamOptions } from './stream.js';

/** One hand-off from the producer: bytes `at … end` of `buf`, and what to call once they are all read. */
interface Piece {
  readonly buf: Buffer;
  at: number;
  readonly end: number;
  readonly taken: () => void;
}

const STOPPED = new Error('snapshot: the image was closed before it was read');

export interface StreamedSnapshotOptions extends SnapshotStreamOptions {
  /**
   * Keep kvstore's private keys of the `cluster` bucket (the v2 store) in the image: true for
   * the leader's state image, false (the default) for a user's snapshot.
   */
  readonly keepPrivateKeys?: boolean;
}

/** What an image is taken of: the store that pins (with its record sizes) and its backend. */
export interface ImageSource {
  readonly store: MvccStore;
  readonly backend: Backend;
  /** Makes everything applied so far visible to a pin (Member.flush). */
  flush(): Promise<void>;
}

/**
 * The image of everything applied to `source` so far: produced on a worker thread when the
 * backend can be opened there (LevelDB), on this thread otherwise (the memory backend).
 */
export function startImage(source: ImageSource, options: StreamedSnapshotOptions = {}): Promise<StreamedSnapshot> {
  const { store, backend } = source;
  const location = backend.sharedLocation;
  if (location === undefined) {
    return StreamedSnapshot.start(async () => {
      await source.flush();
      return store.pinSnapshot();
    }, options);
  }
  return StreamedSnapshot.startOnThread(
    location,
    async (pinView) => {
      await source.flush();
      return (await store.pinSnapshot(pinView)).records;
    },
    options,
  );
}

export class StreamedSnapshot implements SnapshotImage {
  /** The SHA-256 of the bytes in file order, as the producer hands them over (this thread: ≈ 0.2 s per 344 MB). */
  readonly #hash: Hash = createHash('sha256');
  #digest: Buffer | undefined;
  readonly #pieces: Piece[] = [];
  #position = 0;
  #closed = false;
  #failure: unknown;
  #wake: (() => void) | undefined;
  readonly #produced: Promise<void>;
  readonly size: number;

  private constructor(
    size: number,
    metas: Buffer,
    /** `consistent_index` of the pinned view. */
    readonly consistentIndex: bigint,
    produce: (offer: PageSink) => Promise<void>,
    release: () => Promise<void>,
    private readonly log: SnapshotLog | undefined,
    private readonly now: () => number,
    private readonly started: number,
  ) {
    this.size = size;
    this.#pieces.push({ buf: metas, at: 0, end: metas.length, taken: () => undefined });
    this.#hash.update(metas);
    this.#produced = produce((buf, bytes) => this.#offer(buf, bytes))
      .catch((e: unknown) => {
        this.#failure ??= e;
        throw e;
      })
      .finally(() => {
        this.#signal();
        return release();
      });
    this.#produced.catch(() => undefined);
    log?.info({ 'total-bytes': this.size, size: humanBytes(this.size) }, 'sending database snapshot to client');
  }

  /**
   * Pins a view (`pin`), reads the small buckets, lays the file out and starts producing it
   * on this thread (the memory backend of tests and the simulation).
   */
  static async start(pin: () => Promise<PinnedSnapshot>, options: StreamedSnapshotOptions = {}): Promise<StreamedSnapshot> {
    const now = options.now ?? (() => performance.now());
    const started = now();
    const pinned = await pin();
    try {
      const { consistentIndex } = await readMeta(pinned.view);
      const { plan, buckets } = await planImage(pinned.view, pinned.records, options.keepPrivateKeys === true);
      return new StreamedSnapshot(
        plan.size,
        plan.metas,
        consistentIndex,
        (offer) => writePlannedBolt(plan, buckets, offer),
        () => pinned.view.close(),
        options.log,
        now,
        started,
      );
    } catch (e) {
      await pinned.view.close();
      throw e;
    }
  }

  /**
   * The same image produced on a worker thread over the database at `location` (image-thread.ts);
   * this thread hashes and sends. `pin` runs `pinView` where the record sizes it returns are
   * frozen (MvccStore.pinSnapshot).
   */
  static async startOnThread(
    location: string,
    pin: (pinView: () => Promise<void>) => Promise<KeyRecordSizes>,
    options: StreamedSnapshotOptions = {},
  ): Promise<StreamedSnapshot> {
    const now = options.now ?? (() => performance.now());
    const started = now();
    const thread = await ImageThread.open(location);
    try {
      const records = await pin(() => thread.pin());
      const { size, metas, consistentIndex } = await thread.start(records, options.keepPrivateKeys === true);
      return new StreamedSnapshot(size, metas, consistentIndex, (offer) => thread.produce(offer), () => thread.close(), options.log, now, started);
    } catch (e) {
      await thread.close();
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
      this.#digest = this.#hash.digest();
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
