/**
 * The open segment being appended to, and the I/O around segment files.
 *
 * Invariants: `dataEnd` is where the next write goes; bytes from `dataEnd` to `allocatedEnd` (the
 * file size) are zero. Zeros are written ahead of the data so that most fsyncs change no file
 * size: once less than half of `preallocateBytes` is left after a write, the next
 * `preallocateBytes` of zeros are written in the background, beside the appends (never over a
 * range an append writes: an append that would reach a range still being filled waits for the
 * fill). Only a write larger than what is left takes its zeros with it (one writev). A fill that
 * fails leaves the file as it was (appends then grow it themselves). Every `append` is durable
 * on return: the file is opened O_DSYNC, or the write is followed by fdatasync (`syncMode`).
 */
import { constants } from 'node:fs';
import { writev } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDir } from '../storage/sync-dir.js';

import { TEMP_SUFFIX } from './segment-name.js';
import { SyncMode } from './types.js';

export interface SegmentFileOptions {
  readonly syncMode: SyncMode;
  readonly preallocateBytes: number;
  /** Called with the seconds each durable write (or fsync) took. */
  readonly onFsync: ((seconds: number) => void) | undefined;
}

/** Zeros shared by every fill (never written to). */
let zeroChunk = Buffer.alloc(0);

function zeros(n: number): Buffer {
  if (zeroChunk.length < n) zeroChunk = Buffer.alloc(n);
  return zeroChunk.subarray(0, n);
}

export class SegmentFile {
  /** The background fill in flight, if any (see the header). */
  private filling: Promise<void> | undefined;

  private constructor(
    private readonly fh: FileHandle,
    private readonly options: SegmentFileOptions,
    private end: number,
    private allocated: number,
  ) {}

  get dataEnd(): number {
    return this.end;
  }

  /**
   * Creates `dir/name` holding `head` (plus preallocated zeros) atomically: written to a temp file,
   * fsynced, renamed, directory fsynced. The returned file appends after the head.
   */
  static async create(dir: string, name: string, head: Buffer, options: SegmentFileOptions): Promise<SegmentFile> {
    const temp = join(dir, name + TEMP_SUFFIX);
    const fh = await open(temp, openFlags(options.syncMode) | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      const zeros = options.preallocateBytes;
      await writeAll(fh, zeros > 0 ? [head, Buffer.alloc(zeros)] : [head], 0);
      const started = process.hrtime.bigint();
      await fh.sync();
      options.onFsync?.(secondsSince(started));
      await rename(temp, join(dir, name));
      await syncDir(dir);
      return new SegmentFile(fh, options, head.length, head.length + zeros);
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  /** Opens an existing segment whose valid data ends at `dataEnd` in a file of `fileSize` bytes. */
  static async openExisting(path: string, dataEnd: number, fileSize: number, options: SegmentFileOptions): Promise<SegmentFile> {
    const fh = await open(path, openFlags(options.syncMode));
    return new SegmentFile(fh, options, dataEnd, fileSize);
  }

  /** Appends `bytes` at `dataEnd`; durable when the promise resolves. */
  async append(bytes: Buffer): Promise<void> {
    const newEnd = this.end + bytes.length;
    if (newEnd > this.allocated && this.filling !== undefined) await this.filling;
    const grow = newEnd > this.allocated && this.options.preallocateBytes > 0;
    const parts = grow ? [bytes, zeros(this.options.preallocateBytes)] : [bytes];
    const started = process.hrtime.bigint();
    await writeAll(this.fh, parts, this.end);
    if (this.options.syncMode === SyncMode.Datasync) await this.fh.datasync();
    this.options.onFsync?.(secondsSince(started));
    this.end = newEnd;
    this.allocated = Math.max(this.allocated, grow ? newEnd + this.options.preallocateBytes : newEnd);
    this.fillAhead();
  }

  /** Starts the next background fill when less than half of `preallocateBytes` is left. */
  private fillAhead(): void {
    const size = this.options.preallocateBytes;
    if (size === 0 || this.filling !== undefined || this.allocated - this.end >= size / 2) return;
    const from = this.allocated;
    this.filling = (async () => {
      try {
        await writeAll(this.fh, [zeros(size)], from);
        if (this.options.syncMode === SyncMode.Datasync) await this.fh.datasync();
        this.allocated = Math.max(this.allocated, from + size);
      } catch {
        // The file may have grown by part of the fill: those bytes are zeros past the data,
        // which reading takes as the clean end; the appends grow the file from here on.
      } finally {
        this.filling = undefined;
      }
    })();
  }

  /** Overwrites [from, to) with zeros and makes that durable (torn-tail repair). */
  async zero(from: number, to: number): Promise<void> {
    await this.filling;
    if (to > from) await writeAll(this.fh, [Buffer.alloc(to - from)], from);
    await this.fh.datasync();
  }

  /** Drops the preallocated zeros after the data (when the segment is finished) and closes. */
  async finish(): Promise<void> {
    await this.filling;
    try {
      if (this.allocated > this.end) {
        await this.fh.truncate(this.end);
        await this.fh.sync();
      }
    } finally {
      await this.fh.close();
    }
  }

  async close(): Promise<void> {
    await this.filling;
    await this.fh.close();
  }
}

function openFlags(mode: SyncMode): number {
  return constants.O_RDWR | (mode === SyncMode.Dsync ? constants.O_DSYNC : 0);
}

/** Writes all of `parts` at `position`, continuing after short writes. */
/** One positioned writev through the callback API (less per-call overhead than FileHandle's). */
function writevAt(fd: number, parts: Buffer[], position: number): Promise<number> {
  return new Promise((resolve, reject) => writev(fd, parts, position, (err, n) => (err ? reject(err) : resolve(n))));
}

async function writeAll(fh: FileHandle, parts: Buffer[], position: number): Promise<void> {
  let rest = parts;
  let at = position;
  while (rest.length > 0) {
    const bytesWritten = await writevAt(fh.fd, rest, at);
    if (bytesWritten <= 0) throw new Error(`wal: write at offset ${at} made no progress`);
    at += bytesWritten;
    rest = dropBytes(rest, bytesWritten);
  }
}

function dropBytes(parts: Buffer[], n: number): Buffer[] {
  const out: Buffer[] = [];
  let skip = n;
  for (const p of parts) {
    if (skip >= p.length) skip -= p.length;
    else {
      out.push(skip > 0 ? p.subarray(skip) : p);
      skip = 0;
    }
  }
  return out;
}

function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}
