/**
 * Where the writer's pages go: two reused buffers that pages are encoded straight into; one is
 * handed to the sink (with its position in the file) once it holds FLUSH_BYTES or more, while
 * pages are encoded into the other (one hand-off in flight at a time). Page ids are handed out
 * from 2 on (pages 0 and 1 are the meta pages, which the writer produces separately).
 *
 * Use: `id = out.next`, `at = out.take(pages)`, encode into `out.buf` at `at` (the whole
 * `pages × pageSize` bytes: the buffer is reused, nothing in it is zero); between batches of
 * work `if (out.full) await out.flush()`, and `await out.close()` at the end (every page
 * handed over). `take` grows the buffer when a page does not fit (pages never straddle a
 * flush), so each buffer is about FLUSH_BYTES plus the largest batch. `skip(pages)` hands out
 * ids without bytes (a layout pass that only counts pages; its sink never sees them).
 *
 * Sinks: a file (`fileSink`, the pages at their offsets), a stream consumer (the snapshot
 * stream: the buffer is reused once the returned promise resolves, so the sink must be done
 * with the bytes by then), or nothing (`discardSink`, layout passes).
 */
import type { FileHandle } from 'node:fs/promises';

/** Bytes gathered before a hand-off. */
const FLUSH_BYTES = 1024 * 1024;

/** Takes `bytes` bytes of pages starting at file offset `position`; `buf` is reused after the promise resolves. */
export type PageSink = (buf: Buffer, bytes: number, position: number) => Promise<void>;

export function fileSink(fh: FileHandle): PageSink {
  return async (buf, bytes, position) => {
    const { bytesWritten } = await fh.write(buf, 0, bytes, position);
    if (bytesWritten !== bytes) throw new Error(`bbolt: short write (${bytesWritten} of ${bytes} bytes)`);
  };
}

export const discardSink: PageSink = () => Promise.resolve();

export class PageOut {
  private buffer: Buffer;
  /** The other buffer: the one being handed over while `writing` is pending. */
  private spare: Buffer;
  private writing: Promise<void> | undefined;
  /** Bytes of `buffer` holding pages not handed over yet. */
  private used = 0;
  /** File offset of `buffer[0]`. */
  private filePos: number;
  private nextId = 2;

  constructor(
    private readonly sink: PageSink,
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

  /** True when the pages taken should be handed over (`flush`) before more are taken. */
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

  /** Hands out the next `pages` ids with no bytes (layout passes over a discarding sink only). */
  skip(pages: number): void {
    if (this.sink !== discardSink) throw new Error('bbolt: pages skipped on a sink that keeps them');
    this.nextId += pages;
    this.filePos += pages * this.pageSize;
  }

  /** Starts handing over the pages taken so far (after the previous hand-off completed). */
  async flush(): Promise<void> {
    if (this.writing !== undefined) await this.writing;
    this.writing = undefined;
    if (this.used === 0) return;
    const full = this.buffer;
    this.writing = this.sink(full, this.used, this.filePos);
    // Handled here too: a build that throws before the next flush never awaits it.
    this.writing.catch(() => undefined);
    this.filePos += this.used;
    this.used = 0;
    this.buffer = this.spare;
    this.spare = full;
  }

  /** Hands over every page taken. */
  async close(): Promise<void> {
    await this.flush();
    if (this.writing !== undefined) await this.writing;
    this.writing = undefined;
  }
}
