/**
 * Where the writer's pages go: one reused buffer that pages are encoded straight into, written
 * to the file (at its page offset) once it holds FLUSH_BYTES or more. Page ids are handed out
 * from 2 on (pages 0 and 1 are the meta pages, written last by the writer).
 *
 * Use: `id = out.next`, `at = out.take(pages)`, encode into `out.buf` at `at` (the whole
 * `pages × pageSize` bytes: the buffer is reused, nothing in it is zero); between batches of
 * work `if (out.full) await out.flush()`. `take` grows the buffer when a page does not fit
 * (pages never straddle a flush), so the buffer is about FLUSH_BYTES plus the largest batch.
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes gathered before a write. */
const FLUSH_BYTES = 1024 * 1024;

export class PageOut {
  private buffer: Buffer;
  /** Bytes of `buffer` holding pages not written yet. */
  private used = 0;
  /** File offset of `buffer[0]`. */
  private filePos: number;
  private nextId = 2;

  constructor(
    private readonly fh: FileHandle,
    readonly pageSize: number,
  ) {
    this.buffer = Buffer.allocUnsafe(FLUSH_BYTES + 16 * pageSize);
    this.filePos = 2 * pageSize;
  }

  /** The buffer pages are encoded into (replaced when it grows: read it after `take`). */
  get buf(): Buffer {
    return this.buffer;
  }

  /** The id the next page taken gets. */
  get next(): number {
    return this.nextId;
  }

  /** True when the pages taken should be written (`flush`) before more are taken. */
  get full(): boolean {
    return this.used >= FLUSH_BYTES;
  }

  /** Takes the next `pages` page ids; returns where in `buf` their bytes go. */
  take(pages: number): number {
    const bytes = pages * this.pageSize;
    if (this.used + bytes > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.used + bytes));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    const at = this.used;
    this.used += bytes;
    this.nextId += pages;
    return at;
  }

  /** Writes the pages taken so far. */
  async flush(): Promise<void> {
    if (this.used === 0) return;
    const { bytesWritten } = await this.fh.write(this.buffer, 0, this.used, this.filePos);
    if (bytesWritten !== this.used) throw new Error(`bbolt: short write (${bytesWritten} of ${this.used} bytes)`);
    this.filePos += this.used;
    this.used = 0;
  }
}
