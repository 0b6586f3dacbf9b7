/**
 * The Maintenance.Snapshot stream: a consistent point-in-time image of the backend, sent in
 * 32 KiB chunks with `remaining_bytes` counting down, then one message whose blob is the
 * SHA-256 of every byte sent before it. The image is a multiple of 512 bytes (clients
 * check total size mod 512 == 32). Image layout: FORMAT.md beside this file.
 *
 * Writes go on while it streams: the image comes from a pinned view, read twice (once
 * to size it, once to send it), never held whole in memory.
 */
import { createHash } from 'node:crypto';
import type * as pb from '../../proto/gen/etcd/rpc.js';
import { Bucket, type Backend, type ReadView } from '../storage/backend.js';

const CHUNK = 32 * 1024;
const MAGIC = Buffer.from('KVSNAP01', 'latin1');
const BUCKETS = Object.values(Bucket);

function recordHeader(bucket: string, key: Buffer, value: Buffer): Buffer {
  const name = Buffer.from(bucket, 'latin1');
  const h = Buffer.alloc(1 + name.length + 4);
  h.writeUInt8(name.length, 0);
  name.copy(h, 1);
  h.writeUInt32BE(key.length, 1 + name.length);
  const v = Buffer.alloc(4);
  v.writeUInt32BE(value.length, 0);
  return Buffer.concat([h, key, v]);
}

/** The image of `view` as a sequence of buffers (unpadded; see FORMAT.md). */
export async function* imagePieces(view: ReadView): AsyncGenerator<Buffer> {
  yield MAGIC;
  for (const bucket of BUCKETS) {
    for await (const [k, v] of view.iterate(bucket)) {
      yield recordHeader(bucket, k, v);
      yield v;
    }
  }
  yield Buffer.from([0]);
}

async function imageSize(view: ReadView): Promise<number> {
  let n = 0;
  for await (const p of imagePieces(view)) n += p.length;
  return n;
}

export async function* streamSnapshot(backend: Backend, flush: () => Promise<void>): AsyncGenerator<pb.SnapshotResponse> {
  await flush();
  const view = await backend.snapshot();
  try {
    const raw = await imageSize(view);
    const total = Math.ceil(raw / 512) * 512;
    const hash = createHash('sha256');
    let remaining = total;
    let buffered: Buffer[] = [];
    let bufferedBytes = 0;
    const emit = (final: boolean): pb.SnapshotResponse | undefined => {
      if (bufferedBytes === 0 || (!final && bufferedBytes < CHUNK)) return undefined;
      const blob = Buffer.concat(buffered, bufferedBytes);
      buffered = [];
      bufferedBytes = 0;
      hash.update(blob);
      remaining -= blob.length;
      return { header: undefined, remainingBytes: BigInt(remaining), blob };
    };
    for await (const p of imagePieces(view)) {
      buffered.push(p);
      bufferedBytes += p.length;
      const msg = emit(false);
      if (msg) yield msg;
    }
    buffered.push(Buffer.alloc(total - raw));
    bufferedBytes += total - raw;
    const last = emit(true);
    if (last) yield last;
    yield { header: undefined, remainingBytes: 0n, blob: hash.digest() };
  } finally {
    await view.close();
  }
}
