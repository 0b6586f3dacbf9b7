/**
 * A snapshot image produced on a worker thread (image-thread-worker.ts), so that this thread
 * only sends it.
 *
 * Producing an image is a scan of every backend record: classic-level turns each key and value
 * into a new Buffer on the thread that reads them, about 1 s of a 1 M-record image, then pages
 * are built from them. On the member's main thread that work and the sending queue behind each
 * other; on a worker it runs beside the sending (and the client requests). The worker opens the
 * same LevelDB database (opened for worker threads: it shares the open one; the database stays
 * open until both closed it) and takes its own LevelDB snapshot when asked — in the io-queue
 * task that freezes the record ledger (MvccStore.pinSnapshot), so the view and the sizes agree
 * exactly as they do for a view pinned here.
 *
 * What crosses (structured messages):
 * - here → worker: `pin`; `start` with the `key` records' sizes (two typed arrays, transferred);
 *   `taken` for every piece read; `close`.
 * - worker → here: `ready`, `pinned`, `plan` (file size, meta pages, the view's consistent
 *   index), each `piece` (a slot of the ring and its length), `done` or `error`, `closed`.
 *
 * The pages themselves cross through a ring of MAX_IN_FLIGHT slots in one SharedArrayBuffer
 * made with the thread: the worker copies up to SLOT_BYTES of pages into the next slot and
 * names it; this thread reads them from there and answers `taken`, which frees the slot (slots
 * are used and freed in order). So memory stays bounded, and no buffer is made per piece on
 * this thread: transferred ArrayBuffers (one per MiB sent) counted as this thread's external
 * memory until collected, and their growth made V8 run full collections of the member's heap
 * during a save (a 1 M-key member: 6.4 s of CPU for a save instead of 2.9 s).
 */
import { Worker } from 'node:worker_threads';
import type { KeyRecordSizes } from './image-plan.js';
import type { PageSink } from './bbolt/page-out.js';

/** Pieces handed over and not yet read: the worker waits at this many. */
export const MAX_IN_FLIGHT = 4;
/** Bytes of a ring slot: a piece of the page writer (1 MiB and a few pages) fits; a longer one takes several. */
export const SLOT_BYTES = 1280 * 1024;

export type ToWorker =
  | { readonly type: 'pin' }
  | { readonly type: 'start'; readonly length: number; readonly tombstone: Uint8Array; readonly valueLength: Uint32Array; readonly keepPrivateKeys: boolean }
  | { readonly type: 'taken' }
  | { readonly type: 'close' };

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'pinned' }
  | { readonly type: 'plan'; readonly size: number; readonly metas: Uint8Array; readonly consistentIndex: bigint }
  | { readonly type: 'piece'; readonly slot: number; readonly bytes: number }
  | { readonly type: 'done' }
  | { readonly type: 'error'; readonly message: string }
  | { readonly type: 'closed' };

type Step = 'ready' | 'pinned' | 'plan' | 'closed';


interface Waiter {
  readonly step: Step;
  readonly resolve: (m: FromWorker) => void;
  readonly reject: (e: Error) => void;
}

export interface ThreadPlan {
  /** Bytes of the whole image. */
  readonly size: number;
  /** Its first two pages. */
  readonly metas: Buffer;
  /** `consistent_index` of the pinned view. */
  readonly consistentIndex: bigint;
}

export class ImageThread {
  readonly #worker: Worker;
  #waiter: Waiter | undefined;
  #failure: Error | undefined;
  /** Where pieces go once `produce` was called; pieces that came before wait in `#early`. */
  #offer: PageSink | undefined;
  readonly #early: Buffer[] = [];
  readonly #ring = new SharedArrayBuffer(MAX_IN_FLIGHT * SLOT_BYTES);
  #production: { resolve: () => void; reject: (e: Error) => void } | undefined;
  #done = false;
  #exited = false;

  private constructor(location: string) {
    this.#worker = new Worker(new URL('./image-thread-worker.js', import.meta.url), { workerData: { location, ring: this.#ring } });
    this.#worker.on('message', (m: FromWorker) => this.#onMessage(m));
    this.#worker.on('error', (e: Error) => this.#fail(e));
    this.#worker.on('exit', () => {
      this.#exited = true;
      this.#fail(new Error('snapshot: the image thread exited'));
    });
  }

  /** Starts a worker that opens the database at `location` (already open in this process). */
  static async open(location: string): Promise<ImageThread> {
    const thread = new ImageThread(location);
    try {
      await thread.#step('ready');
    } catch (e) {
      await thread.close();
      throw e;
    }
    return thread;
  }

  /** The worker pins its view of the database now (call it where the record sizes are frozen). */
  async pin(): Promise<void> {
    const wait = this.#step('pinned');
    this.#post({ type: 'pin' });
    await wait;
  }

  /** Lays the image out from the pinned view and `records` (image-plan.ts); the pages follow (see `produce`). */
  async start(records: KeyRecordSizes, keepPrivateKeys: boolean): Promise<ThreadPlan> {
    const wait = this.#step('plan');
    const tombstone = records.tombstone.slice(0, records.length);
    const valueLength = records.valueLength.slice(0, records.length);
    this.#post({ type: 'start', length: records.length, tombstone, valueLength, keepPrivateKeys }, [tombstone.buffer, valueLength.buffer]);
    const m = (await wait) as Extract<FromWorker, { type: 'plan' }>;
    return { size: m.size, metas: Buffer.from(m.metas.buffer, m.metas.byteOffset, m.metas.byteLength), consistentIndex: m.consistentIndex };
  }

  /**
   * Hands every page after the meta pages to `offer`, in order; resolves when the worker
   * produced the last one, rejects on its error or when an offer rejects (the image was closed).
   */
  produce(offer: PageSink): Promise<void> {
    this.#offer = offer;
    const done = new Promise<void>((resolve, reject) => (this.#production = { resolve, reject }));
    if (this.#failure !== undefined) this.#production?.reject(this.#failure);
    else if (this.#done) this.#production?.resolve();
    for (const piece of this.#early.splice(0)) this.#hand(piece);
    return done;
  }

  /** Stops the worker; it closes its view and its handle on the database first. */
  async close(): Promise<void> {
    if (!this.#exited) {
      const closed = new Promise<FromWorker>((resolve, reject) => (this.#waiter = { step: 'closed', resolve, reject }));
      this.#post({ type: 'close' });
      await closed;
    }
    await this.#worker.terminate();
  }

  #hand(bytes: Buffer): void {
    this.#offer!(bytes, bytes.length, 0).then(
      () => this.#post({ type: 'taken' }),
      (e: unknown) => this.#fail(e instanceof Error ? e : new Error(String(e))),
    );
  }

  #onMessage(m: FromWorker): void {
    switch (m.type) {
      case 'piece': {
        const bytes = Buffer.from(this.#ring, m.slot * SLOT_BYTES, m.bytes);
        if (this.#offer === undefined) this.#early.push(bytes);
        else this.#hand(bytes);
        return;
      }
      case 'done':
        this.#done = true;
        this.#production?.resolve();
        return;
      case 'error':
        this.#fail(new Error(m.message));
        return;
      default: {
        const w = this.#waiter;
        if (w?.step === m.type) {
          this.#waiter = undefined;
          w.resolve(m);
        }
      }
    }
  }

  #step(step: Step): Promise<FromWorker> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise<FromWorker>((resolve, reject) => (this.#waiter = { step, resolve, reject }));
  }

  #post(m: ToWorker, transfer: ArrayBuffer[] = []): void {
    if (!this.#exited) this.#worker.postMessage(m, transfer);
  }

  #fail(e: Error): void {
    this.#failure ??= e;
    const w = this.#waiter;
    // Closing waits for the worker to have closed its database handle (or to be gone).
    if (w !== undefined && (w.step !== 'closed' || this.#exited)) {
      this.#waiter = undefined;
      if (w.step === 'closed') w.resolve({ type: 'closed' });
      else w.reject(this.#failure);
    }
    if (!this.#done) this.#production?.reject(this.#failure);
  }
}
