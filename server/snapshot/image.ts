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
/** Records handed out at most at a time while parsing (a whole image in one chunk is parsed in steps). */
const RECORDS_PER_BATCH = 1024;
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

/** One record of an image: bucket, key, value. */
export type ImageRecord = readonly [Bucket, Buffer, Buffer];

/**
 * Buffers a chunked source. `fill()` adds the next chunk to what is left unread (false at the
 * end); records are parsed in place from `buf[pos…]`.
 */
class ChunkBuffer {
  buf: Buffer = Buffer.alloc(0);
  pos = 0;
  private readonly it: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.it = source[Symbol.asyncIterator]();
  }

  get available(): number {
    return this.buf.length - this.pos;
  }

  async fill(): Promise<boolean> {
    const next = await this.it.next();
    if (next.done === true) return false;
    this.buf = this.pos === this.buf.length ? next.value : Buffer.concat([this.buf.subarray(this.pos), next.value]);
    this.pos = 0;
    return true;
  }

  async close(): Promise<void> {
    await this.it.return?.();
  }
}

/**
 * The record at `c.pos` if it is wholly buffered: [bucket, key, value] copied out (the source's
 * chunks are not kept), or 'end' at the end marker; undefined when more bytes are needed.
 * Throws on an unknown bucket.
 */
function parseRecord(c: ChunkBuffer): ImageRecord | 'end' | undefined {
  const b = c.buf;
  let at = c.pos;
  if (b.length - at < 1) return undefined;
  const nameLen = b[at]!;
  if (nameLen === 0) {
    c.pos = at + 1;
    return 'end';
  }
  if (b.length - at < 1 + nameLen + 4) return undefined;
  const keyLen = b.readUInt32BE(at + 1 + nameLen);
  if (b.length - at < 1 + nameLen + 4 + keyLen + 4) return undefined;
  const valueLen = b.readUInt32BE(at + 1 + nameLen + 4 + keyLen);
  if (b.length - at < 1 + nameLen + 4 + keyLen + 4 + valueLen) return undefined;
  const bucket = b.toString('latin1', at + 1, at + 1 + nameLen);
  if (!BUCKETS.includes(bucket)) throw new Error(`snapshot image names an unknown bucket ${JSON.stringify(bucket)}`);
  at += 1 + nameLen + 4;
  const key = Buffer.from(b.subarray(at, at + keyLen));
  at += keyLen + 4;
  const value = Buffer.from(b.subarray(at, at + valueLen));
  c.pos = at + valueLen;
  return [bucket as Bucket, key, value];
}

/**
 * The records of an image read from `source` (any chunking), a batch per chunk: every record
 * wholly buffered is parsed without waiting; throws on a malformed image.
 */
export async function* imageRecordBatches(source: AsyncIterable<Buffer>): AsyncGenerator<ImageRecord[]> {
  const c = new ChunkBuffer(source);
  const premature = (): Error => new Error('snapshot image ends in the middle of a record');
  try {
    while (c.available < MAGIC.length) if (!(await c.fill())) throw premature();
    if (c.buf.toString('latin1', c.pos, c.pos + MAGIC.length) !== MAGIC) throw new Error('not a snapshot image (bad magic)');
    c.pos += MAGIC.length;
    for (;;) {
      const batch: ImageRecord[] = [];
      let r: ImageRecord | 'end' | undefined;
      while (batch.length < RECORDS_PER_BATCH && (r = parseRecord(c)) !== undefined && r !== 'end') batch.push(r);
      if (batch.length > 0) yield batch;
      if (r === 'end') return;
      if (r === undefined && !(await c.fill())) throw premature();
    }
  } finally {
    await c.close();
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
  const push = (op: BackendOp): void => {
    ops.push(op);
    bytes += op.key.length + (op.type === 'put' ? op.value.length : 0) + 16;
  };
  const writeBatch = async (): Promise<void> => {
    await backend.write(ops, { sync: false });
    ops = [];
    bytes = 0;
  };
  for (const bucket of BUCKETS as Bucket[]) {
    for await (const { entries, keyStart } of backend.batches(bucket, { keysOnly: true })) {
      for (const [key] of entries) push({ type: 'del', bucket, key: Buffer.from(key.subarray(keyStart)) });
      if (bytes >= BATCH_BYTES) await writeBatch();
    }
  }
  let last: BackendOp = consistentIndexOp(0n);
  for await (const records of imageRecordBatches(source)) {
    for (const [bucket, key, value] of records) {
      const op: BackendOp = { type: 'put', bucket, key, value };
      if (bucket === Bucket.Meta && key.equals(META_CONSISTENT_INDEX)) last = op;
      else push(op);
      if (bytes >= BATCH_BYTES) await writeBatch();
    }
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
