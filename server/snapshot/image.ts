/**
 * Snapshot images on disk (layout: FORMAT.md): receiving one from the leader into a file
 * (fsynced before the sender is told it arrived), and loading one into a backend, replacing
 * everything the backend held, in one synced batch.
 */
import { open, readFile, rename } from 'node:fs/promises';
import { Bucket, type Backend, type BackendOp } from '../storage/backend.js';

const MAGIC = 'KVSNAP01';
const BUCKETS: readonly string[] = Object.values(Bucket);

/** Writes `body` to `path` (through `<path>.part`), fsynced. */
export async function receiveImage(body: AsyncIterable<Buffer>, path: string): Promise<number> {
  const part = `${path}.part`;
  const fh = await open(part, 'w');
  let bytes = 0;
  try {
    for await (const chunk of body) {
      await fh.write(chunk);
      bytes += chunk.length;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(part, path);
  return bytes;
}

/** The records of an image: [bucket, key, value]; throws on a malformed image. */
export function* imageRecords(image: Buffer): Generator<readonly [Bucket, Buffer, Buffer]> {
  if (image.subarray(0, 8).toString('latin1') !== MAGIC) throw new Error('not a snapshot image (bad magic)');
  let p = 8;
  for (;;) {
    const nameLen = image.readUInt8(p);
    p += 1;
    if (nameLen === 0) return;
    const bucket = image.subarray(p, p + nameLen).toString('latin1');
    p += nameLen;
    if (!BUCKETS.includes(bucket)) throw new Error(`snapshot image names an unknown bucket ${JSON.stringify(bucket)}`);
    const keyLen = image.readUInt32BE(p);
    const key = image.subarray(p + 4, p + 4 + keyLen);
    p += 4 + keyLen;
    const valueLen = image.readUInt32BE(p);
    const value = image.subarray(p + 4, p + 4 + valueLen);
    p += 4 + valueLen;
    yield [bucket as Bucket, Buffer.from(key), Buffer.from(value)];
  }
}

/** Replaces everything `backend` holds with `image` (one synced batch). */
export async function loadImageBytes(backend: Backend, image: Buffer): Promise<void> {
  const ops: BackendOp[] = [];
  for (const bucket of BUCKETS as Bucket[]) {
    for await (const [key] of backend.iterate(bucket)) ops.push({ type: 'del', bucket, key: Buffer.from(key) });
  }
  for (const [bucket, key, value] of imageRecords(image)) ops.push({ type: 'put', bucket, key, value });
  await backend.write(ops, { sync: true });
}

/** Replaces the backend's contents with the image at `path` (one synced batch). */
export async function loadImage(backend: Backend, path: string): Promise<void> {
  await loadImageBytes(backend, await readFile(path));
}
