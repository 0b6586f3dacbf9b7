/**
 * The worker side of image-thread.ts: opens the member's LevelDB database (shared with the
 * main thread), pins its own view when told, lays the image out (image-plan.ts) and produces
 * its pages, copying each ≈ 1 MiB into the next slot of the shared ring and waiting while
 * MAX_IN_FLIGHT of them are unread. Every failure is reported as an `error` message; `close` stops the
 * production, then closes the view and the database handle.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readMeta } from '../mvcc/meta.js';
import { writePlannedBolt } from './bbolt/planned-bolt.js';
import { planImage } from './image-plan.js';
import { MAX_IN_FLIGHT, SLOT_BYTES, type FromWorker, type ToWorker } from './image-thread.js';
import type { ReadView } from '../storage/backend.js';
import { openLevelBackend } from '../storage/level-backend.js';

const port = parentPort!;
const { location, ring } = workerData as { readonly location: string; readonly ring: SharedArrayBuffer };
const slots = Array.from({ length: MAX_IN_FLIGHT }, (_, i) => new Uint8Array(ring, i * SLOT_BYTES, SLOT_BYTES));
let nextSlot = 0;
const STOPPED = new Error('snapshot: the image was closed before it was produced');

let view: ReadView | undefined;
let production: Promise<void> = Promise.resolve();
let inFlight = 0;
let stopped = false;
let wake: (() => void) | undefined;

function post(m: FromWorker, transfer: ArrayBuffer[] = []): void {
  port.postMessage(m, transfer);
}

function report(e: unknown): void {
  if (!stopped) post({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}

/** A copy of `bytes` in an ArrayBuffer of its own (transferable). */
function ownCopy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy;
}

/** Copies `bytes` of `buf` into ring slots in order, waiting for a free one before each. */
async function handOver(buf: Buffer, bytes: number): Promise<void> {
  for (let at = 0; at < bytes; at += SLOT_BYTES) {
    while (inFlight >= MAX_IN_FLIGHT && !stopped) await new Promise<void>((w) => (wake = w));
    if (stopped) throw STOPPED;
    const n = Math.min(SLOT_BYTES, bytes - at);
    slots[nextSlot]!.set(buf.subarray(at, at + n));
    post({ type: 'piece', slot: nextSlot, bytes: n });
    nextSlot = (nextSlot + 1) % MAX_IN_FLIGHT;
    inFlight++;
  }
}

async function produce(m: Extract<ToWorker, { type: 'start' }>): Promise<void> {
  if (view === undefined) throw new Error('snapshot: the image thread was started before its view was pinned');
  const { consistentIndex } = await readMeta(view);
  const { plan, buckets } = await planImage(view, m, m.keepPrivateKeys);
  const metas = ownCopy(plan.metas);
  post({ type: 'plan', size: plan.size, metas, consistentIndex }, [metas.buffer]);
  await writePlannedBolt(plan, buckets, handOver);
  post({ type: 'done' });
}

const backend = await openLevelBackend(location, { createIfMissing: false });

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'pin':
      void backend.snapshot().then((v) => {
        view = v;
        post({ type: 'pinned' });
      }, report);
      return;
    case 'start':
      production = produce(m).catch(report);
      return;
    case 'taken':
      inFlight--;
      wake?.();
      return;
    case 'close':
      stopped = true;
      wake?.();
      void production
        .then(() => view?.close())
        .then(() => backend.close())
        .catch(() => undefined)
        .then(() => {
          post({ type: 'closed' });
          port.close();
        });
  }
});
post({ type: 'ready' });
