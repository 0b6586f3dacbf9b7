/**
 * A SHA-256 computed on a worker thread, for the snapshot stream: hashing 344 MB on the main
 * thread took ≈ 8 % of its time during a 1 M-key save (README.md), time the scan and the sends
 * need. `update` hands over a copy of the bytes (transferred, not cloned), in order; `digest()`
 * resolves with the hash of everything handed over; `abort()` stops the worker (an image closed
 * early). One worker per hash, started with the hash.
 */
import { Worker } from 'node:worker_threads';
import type { ImageHash } from './image-hash.js';

const SOURCE = `
const { parentPort } = require('node:worker_threads');
const hash = require('node:crypto').createHash('sha256');
parentPort.on('message', (m) => {
  if (m === null) parentPort.postMessage(hash.digest());
  else hash.update(m);
});
`;

export class OffThreadSha256 implements ImageHash {
  readonly #worker: Worker;
  #failure: Error | undefined;

  constructor() {
    this.#worker = new Worker(SOURCE, { eval: true });
    this.#worker.on('error', (e: Error) => (this.#failure ??= e));
    this.#worker.unref();
  }

  /** Hashes `bytes` next (copied now: the caller may reuse its buffer). */
  update(bytes: Uint8Array): void {
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    this.#worker.postMessage(copy, [copy.buffer]);
  }

  /** The SHA-256 of every byte given to `update`; the worker ends. */
  digest(): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      if (this.#failure !== undefined) return reject(this.#failure);
      this.#worker.once('message', (d: Uint8Array) => {
        resolve(Buffer.from(d.buffer, d.byteOffset, d.byteLength));
        void this.#worker.terminate();
      });
      this.#worker.once('error', reject);
      this.#worker.postMessage(null);
    });
  }

  abort(): void {
    void this.#worker.terminate();
  }
}
