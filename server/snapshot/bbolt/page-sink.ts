/**
 * Appending pages to a bbolt file: hands out consecutive page ids from 2 on (pages 0 and 1
 * are the meta pages, written last) and batches writes (≈256 KiB) to the file handle.
 */
import type { FileHandle } from 'node:fs/promises';

const BATCH_BYTES = 256 * 1024;

export class PageSink {
  private nextId = 2;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private writtenUpTo: number;

  constructor(
    private readonly fh: FileHandle,
    readonly pageSize: number,
  ) {
    this.writtenUpTo = 2 * pageSize;
  }

  /** The id the next appended page gets. */
  get next(): number {
    return this.nextId;
  }

  /** Appends `page` (a whole number of pages, already carrying id `this.next`); returns its id. */
  async append(page: Buffer): Promise<number> {
    if (page.length === 0 || page.length % this.pageSize !== 0) throw new Error('bbolt: page buffer is not whole pages');
    const id = this.nextId;
    this.nextId += page.length / this.pageSize;
    this.pending.push(page);
    this.pendingBytes += page.length;
    if (this.pendingBytes >= BATCH_BYTES) await this.flush();
    return id;
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
