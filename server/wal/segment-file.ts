/**
 * The open segment being appended to, and the I/O around segment files.
 *
 * Invariants: `dataEnd` is where the next write goes; bytes from `dataEnd` to `allocatedEnd` (the
 * file size) are zero. When a write would pass `allocatedEnd`, `preallocateBytes` more zeros are
 * written with it (one writev), so most fsyncs change no file size. Every `append` is durable on
 * return: the file is opened O_DSYNC, or the write is followed by fdatasync (`syncMode`).
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

export class SegmentFile {
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
    const grow = newEnd > this.allocated && this.options.preallocateBytes > 0;
    const parts = grow ? [bytes, Buffer.alloc(this.options.preallocateBytes)] : [bytes];
    const started = process.hrtime.bigint();
    await writeAll(this.fh, parts, this.end);
    if (this.options.syncMode === SyncMode.Datasync) await this.fh.datasync();
    this.options.onFsync?.(secondsSince(started));
    this.end = newEnd;
    this.allocated = Math.max(this.allocated, grow ? newEnd + this.options.preallocateBytes : newEnd);
  }

  /** Overwrites [from, to) with zeros and makes that durable (torn-tail repair). */
  async zero(from: number, to: number): Promise<void> {
    if (to > from) await writeAll(this.fh, [Buffer.alloc(to - from)], from);
    await this.fh.datasync();
  }

  /** Drops the preallocated zeros after the data (when the segment is finished) and closes. */
  async finish(): Promise<void> {
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
