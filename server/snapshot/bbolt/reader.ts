/**
 * Reading a bbolt database page by page (layout: FORMAT.md) through a file handle (`openBolt`:
 * the whole file is never loaded) or from bytes already in memory (`openBoltBytes`: the
 * simulation's state images). Of the two meta pages the valid one with the higher txid wins
 * (as bbolt chooses). Pages are read through a 256 KiB read-ahead window. Bytes after the last page (the 32-byte SHA-256 of a snapshot file) are
 * never read. Only top-level buckets are listed; nested buckets inside them are skipped.
 *
 * Errors: a file that is not bbolt (no valid meta page), shorter than the pages its meta page
 * names (truncated), or whose pages are inconsistent (wrong page id, wrong page type, a page
 * past the end of the file) → rejects/throws Error.
 */
import { open, type FileHandle } from 'node:fs/promises';
import {
  BUCKET_HEADER_SIZE,
  BUCKET_LEAF_FLAG,
  DEFAULT_PAGE_SIZE,
  PAGE_HEADER_SIZE,
  PageFlag,
  branchElements,
  decodeBucketHeader,
  decodeMeta,
  leafElements,
  readPageHeader,
  type LeafElement,
  type Meta,
} from './layout.js';
import type { BoltReader } from './types.js';

/** Pages read ahead in one read: consecutive pages (our writer's and often bbolt's) cost one call. */
const WINDOW_BYTES = 256 * 1024;

/** Where the bytes come from: a file handle, or a buffer (`bytesSource`). */
interface ByteSource {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ readonly bytesRead: number }>;
  stat(): Promise<{ readonly size: number }>;
  close(): Promise<void>;
}

function bytesSource(bytes: Buffer): ByteSource {
  return {
    read: (buffer, offset, length, position) => {
      const n = Math.max(0, Math.min(length, bytes.length - position));
      bytes.copy(buffer, offset, position, position + n);
      return Promise.resolve({ bytesRead: n });
    },
    stat: () => Promise.resolve({ size: bytes.length }),
    close: () => Promise.resolve(),
  };
}

class PageFile {
  private window: { readonly start: number; readonly buf: Buffer } | undefined;

  constructor(
    private readonly fh: ByteSource,
    readonly pageSize: number,
    private readonly fileSize: number,
    private readonly highWater: number,
  ) {}

  private async readAt(offset: number, length: number): Promise<Buffer> {
    if (offset + length > this.fileSize) throw new Error(`bbolt: page at offset ${offset} runs past the end of the file`);
    const buf = Buffer.alloc(length);
    const { bytesRead } = await this.fh.read(buf, 0, length, offset);
    if (bytesRead !== length) throw new Error(`bbolt: short read at offset ${offset}`);
    return buf;
  }

  /** Bytes [offset, offset + length) from the read-ahead window, refilled at `offset` when needed. */
  private async bytes(offset: number, length: number): Promise<Buffer> {
    const w = this.window;
    if (w !== undefined && offset >= w.start && offset + length <= w.start + w.buf.length) {
      return w.buf.subarray(offset - w.start, offset - w.start + length);
    }
    if (length > WINDOW_BYTES) return this.readAt(offset, length);
    const end = Math.min(offset + WINDOW_BYTES, this.highWater * this.pageSize, this.fileSize);
    const buf = await this.readAt(offset, Math.max(end - offset, length));
    this.window = { start: offset, buf };
    return buf.subarray(0, length);
  }

  /** Page `id` with its overflow pages. */
  async page(id: number): Promise<Buffer> {
    if (id < 2 || id >= this.highWater) throw new Error(`bbolt: page ${id} outside 2..${this.highWater - 1}`);
    const first = await this.bytes(id * this.pageSize, this.pageSize);
    const h = readPageHeader(first);
    if (h.id !== id) throw new Error(`bbolt: page ${id} carries id ${h.id}`);
    if (h.overflow === 0) return first;
    return this.bytes(id * this.pageSize, (h.overflow + 1) * this.pageSize);
  }
}

/** Leaf elements of the tree rooted at page `root`, in key order, a leaf page at a time (depth first, one generator). */
async function* walk(file: PageFile, root: number): AsyncGenerator<LeafElement[]> {
  const stack = [root];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    const page = await file.page(id);
    const h = readPageHeader(page);
    if (h.flags === PageFlag.Leaf) {
      yield leafElements(page, 0, h.count);
    } else if (h.flags === PageFlag.Branch) {
      const children = branchElements(page, h.count);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!.pgid);
    } else {
      throw new Error(`bbolt: page ${id} has flags 0x${h.flags.toString(16)} inside a tree`);
    }
  }
}

/** Entries of a bucket given its value in the parent (inline page or own tree), a leaf page at a time. */
async function* bucketElements(file: PageFile, value: Buffer): AsyncGenerator<LeafElement[]> {
  const { root } = decodeBucketHeader(value);
  if (root !== 0) {
    yield* walk(file, root);
    return;
  }
  const inline = Buffer.from(value.subarray(BUCKET_HEADER_SIZE));
  if (inline.length < PAGE_HEADER_SIZE) throw new Error('bbolt: inline bucket shorter than a page header');
  const h = readPageHeader(inline);
  if (h.flags !== PageFlag.Leaf) throw new Error(`bbolt: inline bucket page has flags 0x${h.flags.toString(16)}`);
  yield leafElements(inline, 0, h.count);
}

async function readMeta(fh: ByteSource, fileSize: number): Promise<Meta> {
  const head = Buffer.alloc(Math.min(fileSize, DEFAULT_PAGE_SIZE));
  await fh.read(head, 0, head.length, 0);
  const m0 = decodeMeta(head, PAGE_HEADER_SIZE);
  const pageSize = m0.kind === 'Ok' ? m0.meta.pageSize : DEFAULT_PAGE_SIZE;
  const second = Buffer.alloc(PAGE_HEADER_SIZE + 64);
  const { bytesRead } = await fh.read(second, 0, second.length, pageSize);
  const m1 = bytesRead === second.length ? decodeMeta(second, PAGE_HEADER_SIZE) : ({ kind: 'Invalid', reason: 'file too short' } as const);
  if (m0.kind === 'Ok' && m1.kind === 'Ok') return m1.meta.txid > m0.meta.txid ? m1.meta : m0.meta;
  if (m0.kind === 'Ok') return m0.meta;
  if (m1.kind === 'Ok') return m1.meta;
  throw new Error(`bbolt: not a bbolt database (meta 0: ${m0.reason}; meta 1: ${m1.reason})`);
}

/** Opens the bbolt database at `path` for reading; a trailing 32-byte SHA-256 after the last page is ignored. */
export async function openBolt(path: string): Promise<BoltReader> {
  const fh: FileHandle = await open(path, 'r');
  return openSource(fh, path);
}

/** Reads the bbolt database held in `bytes` (not copied: the caller leaves them alone until `close`). */
export function openBoltBytes(bytes: Buffer): Promise<BoltReader> {
  return openSource(bytesSource(bytes), `(${bytes.length} bytes in memory)`);
}

async function openSource(fh: ByteSource, name: string): Promise<BoltReader> {
  try {
    const { size } = await fh.stat();
    const meta = await readMeta(fh, size);
    if (size < meta.pgid * meta.pageSize) {
      throw new Error(`bbolt: ${size} bytes, shorter than the ${meta.pgid} pages of ${meta.pageSize} bytes its meta page names (truncated)`);
    }
    const file = new PageFile(fh, meta.pageSize, size, meta.pgid);
    const buckets = new Map<string, Buffer>();
    for await (const leaf of walk(file, meta.root)) {
      for (const e of leaf) if ((e.flags & BUCKET_LEAF_FLAG) !== 0) buckets.set(e.key.toString('utf8'), Buffer.from(e.value));
    }
    const names = [...buckets.keys()];
    const bucketValue = (bucket: string): Buffer => {
      const value = buckets.get(bucket);
      if (value === undefined) throw new Error(`bbolt: no bucket ${JSON.stringify(bucket)}`);
      return value;
    };
    return {
      bucketNames: () => names,
      entries: (bucket) => {
        const value = bucketValue(bucket);
        return (async function* () {
          for await (const leaf of bucketElements(file, value)) {
            for (const e of leaf) if ((e.flags & BUCKET_LEAF_FLAG) === 0) yield [e.key, e.value] as const;
          }
        })();
      },
      entryBatches: (bucket) => {
        const value = bucketValue(bucket);
        return (async function* () {
          for await (const leaf of bucketElements(file, value)) {
            const batch = leaf.filter((e) => (e.flags & BUCKET_LEAF_FLAG) === 0).map((e) => [e.key, e.value] as const);
            if (batch.length > 0) yield batch;
          }
        })();
      },
      close: () => fh.close(),
    };
  } catch (err) {
    await fh.close();
    throw new Error(`bbolt: cannot open ${name}`, { cause: err });
  }
}
