/**
 * Where built pages go. Every sink hands out consecutive page ids from 2 on (pages 0 and 1
 * are the meta pages, written or sent first or last by the caller):
 * - FilePageSink batches writes (≈256 KiB) to a file handle;
 * - CountingSink keeps nothing: it only advances the ids (the layout pass of a streamed file:
 *   `counting` tells builders they may skip encoding and `reserve` the pages instead);
 * - BufferSink keeps pages until the caller takes them (`take`), for streaming.
 */
import type { FileHandle } from 'node:fs/promises';

const BATCH_BYTES = 256 * 1024;

export interface PageSink {
  readonly pageSize: number;
  /** The id the next appended page gets. */
  readonly next: number;
  /** True when pages need not be encoded: `reserve` their ids instead of `append`. */
  readonly counting: boolean;
  /** True when `append` completes at once (its promise need not be awaited). */
  readonly buffered: boolean;
  /** Appends `page` (a whole number of pages, already carrying id `this.next`); returns its id. */
  append(page: Buffer): Promise<number>;
  /** Takes ids for `pages` pages without content; returns the first. */
  reserve(pages: number): number;
}

abstract class IdSink {
  protected nextId = 2;

  constructor(readonly pageSize: number) {}

  get next(): number {
    return this.nextId;
  }

  protected take(page: Buffer): number {
    if (page.length === 0 || page.length % this.pageSize !== 0) throw new Error('bbolt: page buffer is not whole pages');
    const id = this.nextId;
    this.nextId += page.length / this.pageSize;
    return id;
  }

  reserve(pages: number): number {
    const id = this.nextId;
    this.nextId += pages;
    return id;
  }
}

export class FilePageSink extends IdSink implements PageSink {
  readonly counting = false;
  readonly buffered = false;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private writtenUpTo: number;

  constructor(
    private readonly fh: FileHandle,
    pageSize: number,
  ) {
    super(pageSize);
    this.writtenUpTo = 2 * pageSize;
  }

  async append(page: Buffer): Promise<number> {
    const id = this.take(page);
    this.pending.push(page);
    this.pendingBytes += page.length;
    if (this.pendingBytes >= BATCH_BYTES) await this.flush();
    return id;
  }

  override reserve(): number {
    throw new Error('bbolt: a file sink writes every page');
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const bufs = this.pending;
    const bytes = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    const { bytesWritten } = await this.fh.writev(bufs, this.writtenUpTo);
    if (bytesWritten !== bytes) throw new Error(`bbolt: short write (${bytesWritten} of ${bytes} bytes)`);
    this.writtenUpTo += bytes;
  }
}

export class CountingSink extends IdSink implements PageSink {
  readonly counting = true;
  readonly buffered = true;

  append(page: Buffer): Promise<number> {
    return Promise.resolve(this.take(page));
  }
}

export class BufferSink extends IdSink implements PageSink {
  readonly counting = false;
  readonly buffered = true;
  private pending: Buffer[] = [];
  /** Bytes appended and not taken yet. */
  pendingBytes = 0;

  append(page: Buffer): Promise<number> {
    const id = this.take(page);
    this.pending.push(page);
    this.pendingBytes += page.length;
    return Promise.resolve(id);
  }

  override reserve(): number {
    throw new Error('bbolt: a buffer sink keeps every page');
  }

  /** The pages appended since the last call, in order. */
  takePending(): Buffer[] {
    const out = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    return out;
  }

  /** True when at least a batch worth of pages waits. */
  get full(): boolean {
    return this.pendingBytes >= BATCH_BYTES;
  }
}
