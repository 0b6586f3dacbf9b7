/**
 * Snapshot images on disk (layout: FORMAT.md): receiving one from the leader into a file
 * (fsynced before the sender is told it arrived), and loading one into a backend, replacing
 * everything the backend held.
 *
 * Loading streams: the image is read in blocks and written in batches of about BATCH_BYTES,
 * so memory stays bounded whatever the image's size. The replacement is not one batch, so it
 * is made restartable instead: the first (synced) batch sets `consistent_index` to 0, the
 * old contents are deleted and the image's records written in batches, and the last (synced)
 * batch writes the image's own `consistent_index`. A member stopped midway finds its backend
 * behind the snapshot the log records and loads the kept image again (start-member.ts), which
 * starts by deleting everything again.
 */
import { open, rename } from 'node:fs/promises';
import { consistentIndexOp, META_CONSISTENT_INDEX } from '../mvcc/meta.js';
import { Bucket, type Backend, type BackendOp } from '../storage/backend.js';

const MAGIC = 'KVSNAP01';
const BUCKETS: readonly string[] = Object.values(Bucket);
/** Bytes of records per backend batch while loading. */
const BATCH_BYTES = 4 * 1024 * 1024;
/** Bytes read from an image file at a time. */
const READ_BYTES = 1024 * 1024;

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

/** Pulls bytes from a chunked source: `take(n)` resolves with exactly n bytes (throws at a premature end). */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;
  private readonly it: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.it = source[Symbol.asyncIterator]();
  }

  async take(n: number): Promise<Buffer> {
    while (this.buf.length - this.pos < n) {
      const next = await this.it.next();
      if (next.done === true) throw new Error('snapshot image ends in the middle of a record');
      this.buf = this.pos === this.buf.length ? next.value : Buffer.concat([this.buf.subarray(this.pos), next.value]);
      this.pos = 0;
    }
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  async close(): Promise<void> {
    await this.it.return?.();
  }
}

/** The records of an image read from `source` (any chunking): [bucket, key, value]; throws on a malformed image. */
export async function* imageRecordsFrom(source: AsyncIterable<Buffer>): AsyncGenerator<readonly [Bucket, Buffer, Buffer]> {
  const r = new ByteReader(source);
  try {
    if ((await r.take(8)).toString('latin1') !== MAGIC) throw new Error('not a snapshot image (bad magic)');
    for (;;) {
      const nameLen = (await r.take(1))[0];
      if (nameLen === 0) return;
      const bucket = (await r.take(nameLen)).toString('latin1');
      if (!BUCKETS.includes(bucket)) throw new Error(`snapshot image names an unknown bucket ${JSON.stringify(bucket)}`);
      const key = Buffer.from(await r.take((await r.take(4)).readUInt32BE(0)));
      const value = Buffer.from(await r.take((await r.take(4)).readUInt32BE(0)));
      yield [bucket as Bucket, key, value];
    }
  } finally {
    await r.close();
  }
}

async function* fileBlocks(path: string): AsyncGenerator<Buffer> {
  const fh = await open(path, 'r');
  try {
    for (;;) {
      const block = Buffer.allocUnsafe(READ_BYTES);
      const { bytesRead } = await fh.read(block, 0, block.length, null);
      if (bytesRead === 0) return;
      yield block.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

/** Replaces everything `backend` holds with the image records of `source`, in bounded batches (see the header). */
export async function loadImageFrom(backend: Backend, source: AsyncIterable<Buffer>): Promise<void> {
  await backend.write([consistentIndexOp(0n)], { sync: true });
  let ops: BackendOp[] = [];
  let bytes = 0;
  const add = async (op: BackendOp): Promise<void> => {
    ops.push(op);
    bytes += op.key.length + (op.type === 'put' ? op.value.length : 0) + 16;
    if (bytes >= BATCH_BYTES) {
      await backend.write(ops, { sync: false });
      ops = [];
      bytes = 0;
    }
  };
  for (const bucket of BUCKETS as Bucket[]) {
    for await (const [key] of backend.iterate(bucket, { keysOnly: true })) await add({ type: 'del', bucket, key: Buffer.from(key) });
  }
  let last: BackendOp = consistentIndexOp(0n);
  for await (const [bucket, key, value] of imageRecordsFrom(source)) {
    const op: BackendOp = { type: 'put', bucket, key, value };
    if (bucket === Bucket.Meta && key.equals(META_CONSISTENT_INDEX)) last = op;
    else await add(op);
  }
  ops.push(last);
  await backend.write(ops, { sync: true });
}

/** Replaces the backend's contents with `image` held in memory (see loadImageFrom). */
export function loadImageBytes(backend: Backend, image: Buffer): Promise<void> {
  return loadImageFrom(backend, (async function* () {
    yield image;
  })());
}

/** Replaces the backend's contents with the image at `path`, read in blocks (see loadImageFrom). */
export function loadImage(backend: Backend, path: string): Promise<void> {
  return loadImageFrom(backend, fileBlocks(path));
}
