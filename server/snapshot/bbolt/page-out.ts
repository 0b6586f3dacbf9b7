/**
 * Where the writer's pages go: two reused buffers that pages are encoded straight into; one is
 * written to the file (at its page offset) once it holds FLUSH_BYTES or more, while pages are
 * encoded into the other (one write in flight at a time). Page ids are handed out from 2 on
 * (pages 0 and 1 are the meta pages, written last by the writer).
 *
 * Use: `id = out.next`, `at = out.take(pages)`, encode into `out.buf` at `at` (the whole
 * `pages × pageSize` bytes: the buffer is reused, nothing in it is zero); between batches of
 * work `if (out.full) await out.flush()`, and `await out.close()` at the end (every page
 * written). `take` grows the buffer when a page does not fit (pages never straddle a flush), so
 * each buffer is about FLUSH_BYTES plus the largest batch.
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes gathered before a write. */
const FLUSH_BYTES = 1024 * 1024;

export class PageOut {
  private buffer: Buffer;
  /** The other buffer: the one being written while `writing` is pending. */
  private spare: Buffer;
  private writing: Promise<void> | undefined;
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
    this.spare = Buffer.allocUnsafe(FLUSH_BYTES + 16 * pageSize);
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

  /** Starts writing the pages taken so far (after the previous write completed). */
  async flush(): Promise<void> {
    if (this.writing !== undefined) await this.writing;
    this.writing = undefined;
    if (this.used === 0) return;
    const full = this.buffer;
    this.writing = this.write(full, this.used, this.filePos);
    // Handled here too: a build that throws before the next flush never awaits it.
    this.writing.catch(() => undefined);
    this.filePos += this.used;
    this.used = 0;
    this.buffer = this.spare;
    this.spare = full;
  }

  /** Writes every page taken. */
  async close(): Promise<void> {
    await this.flush();
    if (this.writing !== undefined) await this.writing;
    this.writing = undefined;
  }

  private async write(buf: Buffer, bytes: number, at: number): Promise<void> {
    const { bytesWritten } = await this.fh.write(buf, 0, bytes, at);
    if (bytesWritten !== bytes) throw new Error(`bbolt: short write (${bytesWritten} of ${bytes} bytes)`);
  }
}
